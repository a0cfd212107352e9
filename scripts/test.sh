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

# Three `bun test` runs side by side (docs/decisions/054-test-suite-shards.md, 063): files that
# spend most of their time waiting (real clocks a minute apart, a browser, servers started,
# stopped and restarted, a child process per step) run in two runs beside the main run's sandbox
# and judging files. Bun runs one run's files one after another, so one run keeps about one core
# busy at most; the two waiting runs fill what the main run leaves. Their files take box ids and
# ports no other file uses (the ranges are listed in decision 054). Their output follows the main
# run's; each run's wall time and the slowest files close the output, then every failed test's
# name, then the line "tests: N passed, N failed".
BESIDE_A=(./e2e/a11y.test.ts ./e2e/contests.test.ts ./e2e/states.test.ts ./e2e/editor-swap.test.ts ./tests/packages/polygon-generate.test.ts ./tests/packages/polygon-export.test.ts)
BESIDE_B=(./e2e/ ./tests/ops/restart.test.ts ./tests/judge/crash.test.ts ./tests/security/lab.test.ts ./tests/language-added.test.ts ./src/packages/roundtrip.test.ts ./src/packages/import.test.ts)
echo "test: bun test (and beside it: ${BESIDE_A[*]}; and ${BESIDE_B[*]} without those)"
log="$(mktemp)"
timings="$(mktemp -d)"
trap 'rm -rf "$log" "$timings"' EXIT
ignore=()
ignore_a=()
for f in "${BESIDE_A[@]}" "${BESIDE_B[@]}"; do
  f="${f#./}"
  case "$f" in */) ignore+=("--path-ignore-patterns=${f}**") ;; *) ignore+=("--path-ignore-patterns=$f") ;; esac
done
for f in "${BESIDE_A[@]}"; do ignore_a+=("--path-ignore-patterns=${f#./}"); done
set +e
start=$SECONDS
# Runs A and B (browsers, servers on loopback) get a network namespace of their own with only loopback,
# where the machine allows it (root, unshare): the main run's tests/judge-hosts/netns.test.ts adds and
# removes interfaces on the host, and Chromium answers each such change by failing the page loads in
# flight (net::ERR_NETWORK_CHANGED), which failed an e2e test that happened to load a page just then.
own_net=()
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && command -v ip > /dev/null && unshare -n true 2> /dev/null; then
  own_net=(unshare -n bash -c 'ip link set lo up && exec "$@"' own-net)
fi
# beside NAME ARGS...: one `bun test` run in the background; its output, status and wall time in $timings.
beside() {
  local name="$1"; shift
  ( "${own_net[@]}" bun test --timeout 60000 --timings="$timings/$name.json" --update-timings "$@" > "$timings/$name.log" 2>&1
    echo $? > "$timings/$name.status"; echo $(( SECONDS - start )) > "$timings/$name.seconds" ) &
}
beside a "${BESIDE_A[@]}"
pid_a=$!
beside b "${ignore_a[@]}" "${BESIDE_B[@]}"
pid_b=$!
bun test --timeout 60000 --timings="$timings/main.json" --update-timings "${ignore[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
main_seconds=$(( SECONDS - start ))
wait "$pid_a" "$pid_b"
status_a=$(cat "$timings/a.status" 2>/dev/null || echo 1)
status_b=$(cat "$timings/b.status" 2>/dev/null || echo 1)
set -e
echo "test: ${BESIDE_A[*]} (run beside the main run):"
cat "$timings/a.log"
echo "test: ${BESIDE_B[*]} without the files above (run beside the main run):"
cat "$timings/b.log"
echo "test: wall time: main run ${main_seconds} s, beside it $(cat "$timings/a.seconds" 2>/dev/null || echo '?') s and $(cat "$timings/b.seconds" 2>/dev/null || echo '?') s; slowest files:"
bun -e '
  const rows = [];
  for (const [run, file] of [["main", process.argv[1]], ["a", process.argv[2]], ["b", process.argv[3]]]) {
    try { for (const [path, ms] of Object.entries(JSON.parse(await Bun.file(file).text()).files)) rows.push([ms, run, path]); } catch {}
  }
  for (const [ms, run, path] of rows.sort((a, b) => b[0] - a[0]).slice(0, 15)) console.log(`  ${(ms / 1000).toFixed(0).padStart(5)} s  ${run.padEnd(6)}  ${path}`);
' "$timings/main.json" "$timings/a.json" "$timings/b.json" || true
count() { grep -Eo "^ *[0-9]+ $1\$" "$2" | tail -1 | grep -Eo '[0-9]+' || echo 0; }
passed=$(( $(count pass "$log") + $(count pass "$timings/a.log") + $(count pass "$timings/b.log") ))
failed=$(( $(count fail "$log") + $(count fail "$timings/a.log") + $(count fail "$timings/b.log") ))
if [ "$failed" -ne 0 ]; then
  echo "test: failed:"
  grep -h -E "^\(fail\)" "$log" "$timings/a.log" "$timings/b.log" | awk '!seen[$0]++' | sed 's/^/  /' || true
fi
echo "tests: ${passed} passed, ${failed} failed"
if [ "$status" -ne 0 ]; then exit "$status"; fi
if [ "$status_a" -ne 0 ]; then exit "$status_a"; fi
if [ "$status_b" -ne 0 ]; then exit "$status_b"; fi
if [ "$passed" -eq 0 ]; then
  echo "test: no test ran" >&2
  exit 1
fi
