#!/usr/bin/env bash
# Starts the online judge on http://localhost:3000 (PORT to change): installs
# what is missing, builds the client when no build exists, runs the server.
set -euo pipefail
cd "$(dirname "$0")/.."
# Sourced, not run: a Bun it installs off PATH (npm's global bin) stays on PATH here.
# Only what serving and judging need: no browser, no test tooling.
INSTALL_ROLE=runtime source scripts/install.sh
exec bun run start
