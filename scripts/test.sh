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

# Files that spend most of their time waiting on a real clock (a contest's start, freeze and end
# are whole minutes apart) run beside the rest in a second `bun test`: they use little CPU while
# they wait, and the suite's wall time drops by theirs. Their output follows the main run's.
BESIDE=(e2e/contests.test.ts)
echo "test: bun test (and beside it: ${BESIDE[*]})"
log="$(mktemp)"
side="$(mktemp)"
trap 'rm -f "$log" "$side"' EXIT
ignore=()
for f in "${BESIDE[@]}"; do ignore+=("--path-ignore-patterns=$f"); done
set +e
bun test --timeout 60000 "${BESIDE[@]}" > "$side" 2>&1 &
side_pid=$!
bun test --timeout 60000 "${ignore[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
wait "$side_pid"
side_status=$?
set -e
echo "test: ${BESIDE[*]} (run beside the main run):"
cat "$side"
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
