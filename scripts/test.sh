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

echo "test: bun test"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
bun test --timeout 60000 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
passed=$(grep -Eo '^ *[0-9]+ pass$' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
failed=$(grep -Eo '^ *[0-9]+ fail$' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
echo "tests: ${passed} passed, ${failed} failed"
if [ "$status" -ne 0 ]; then exit "$status"; fi
if [ "$passed" -eq 0 ]; then
  echo "test: no test ran" >&2
  exit 1
fi
