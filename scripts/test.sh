#!/usr/bin/env bash
# Runs every test: installs what is missing, type-checks, then `bun test`
# (unit, API, sandbox, judge and browser tests). Ends with a line
# "tests: N passed, N failed" and exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# Sourced, not run: a Bun it installs off PATH (npm's global bin) stays on PATH here.
source scripts/install.sh

# isolate for the sandbox suites, from the vendored sources (skips, saying why, where they are absent).
echo "test: bun scripts/build-isolate.ts --for-tests"
bun scripts/build-isolate.ts --for-tests

echo "test: bun run typecheck"
bun run typecheck

# What both runs below share (the client build, the precompiled header), once, before they start.
echo "test: bun tests/prepare.ts"
bun tests/prepare.ts

# Two `bun test` runs side by side (docs/decisions/054-test-suite-shards.md): files that spend most
# of their time waiting (real clocks a minute apart, a browser, servers started, stopped and
# restarted, a child process per step) run in the second, beside the main run's sandbox and
# judging files; together they fill the machine's two cores. The second run's files take box ids
# and ports no main-run file uses (the ranges are listed in that decision). Its output follows
# the main run's; each run's slowest files and wall time close the output.
BESIDE=(./e2e/ ./tests/ops/restart.test.ts ./tests/judge/crash.test.ts ./tests/security/lab.test.ts ./tests/language-added.test.ts)
echo "test: bun test (and beside it: ${BESIDE[*]})"
log="$(mktemp)"
side="$(mktemp)"
timings="$(mktemp -d)"
trap 'rm -rf "$log" "$side" "$timings"' EXIT
ignore=()
for f in "${BESIDE[@]}"; do
  f="${f#./}"
  case "$f" in */) ignore+=("--path-ignore-patterns=${f}**") ;; *) ignore+=("--path-ignore-patterns=$f") ;; esac
done
set +e
start=$SECONDS
( bun test --timeout 60000 --timings="$timings/beside.json" --update-timings "${BESIDE[@]}" > "$side" 2>&1; echo $? > "$timings/beside.status"; echo $(( SECONDS - start )) > "$timings/beside.seconds" ) &
side_pid=$!
bun test --timeout 60000 --timings="$timings/main.json" --update-timings "${ignore[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
main_seconds=$(( SECONDS - start ))
wait "$side_pid"
side_status=$(cat "$timings/beside.status" 2>/dev/null || echo 1)
set -e
echo "test: ${BESIDE[*]} (run beside the main run):"
cat "$side"
echo "test: wall time: main run ${main_seconds} s, beside it $(cat "$timings/beside.seconds" 2>/dev/null || echo '?') s; slowest files:"
bun -e '
  const rows = [];
  for (const [run, file] of [["main", process.argv[1]], ["beside", process.argv[2]]]) {
    try { for (const [path, ms] of Object.entries(JSON.parse(await Bun.file(file).text()).files)) rows.push([ms, run, path]); } catch {}
  }
  for (const [ms, run, path] of rows.sort((a, b) => b[0] - a[0]).slice(0, 15)) console.log(`  ${(ms / 1000).toFixed(0).padStart(5)} s  ${run.padEnd(6)}  ${path}`);
' "$timings/main.json" "$timings/beside.json" || true
count() { grep -Eo "^ *[0-9]+ $1\$" "$2" | tail -1 | grep -Eo '[0-9]+' || echo 0; }
passed=$(( $(count pass "$log") + $(count pass "$side") ))
failed=$(( $(count fail "$log") + $(count fail "$side") ))
echo "tests: ${passed} passed, ${failed} failed"
if [ "$status" -ne 0 ]; then exit "$status"; fi
if [ "$side_status" -ne 0 ]; then exit "$side_status"; fi
if [ "$passed" -eq 0 ]; then
  echo "test: no test ran" >&2
  exit 1
fi
