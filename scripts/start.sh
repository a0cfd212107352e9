#!/usr/bin/env bash
# Starts the online judge on http://localhost:3000 (PORT to change): installs
# what is missing, builds the client when no build exists, runs the server.
set -euo pipefail
cd "$(dirname "$0")/.."
ensure_bun_on_path() { command -v bun >/dev/null 2>&1 || export PATH="$(npm prefix -g)/bin:$PATH"; }
bash scripts/install.sh
ensure_bun_on_path
exec bun run start
