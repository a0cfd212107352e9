#!/usr/bin/env bash
# Installs what the online judge needs, only what is missing, and says what it
# installs. Idempotent: a second run installs nothing. Shared by
# scripts/start.sh and scripts/test.sh. Targets Debian 12 as root (or with
# sudo); elsewhere it skips the Debian packages and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'install: %s\n' "$*"; }

# 1. Debian packages: the sandbox (bubblewrap), the compilers and runtimes the
#    judge runs (g++, a JDK, Python) and the browser the end-to-end tests drive.
DEB_PACKAGES=(bubblewrap default-jdk-headless g++ python3 chromium)
if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  missing=()
  for pkg in "${DEB_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]})); then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    say "Debian packages: ${missing[*]} (apt-get update, then apt-get install)"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
  else
    say "Debian packages present: ${DEB_PACKAGES[*]}"
  fi
else
  say "not a Debian system: install bubblewrap, g++, a JDK, python3 and chromium yourself"
fi

# 2. Bun, from npm (Node and npm are assumed present).
if ! command -v bun >/dev/null 2>&1; then
  say "Bun (npm install -g bun)"
  npm install -g bun
  hash -r
  if ! command -v bun >/dev/null 2>&1; then
    export PATH="$(npm prefix -g)/bin:$PATH"
  fi
fi
say "using $(command -v bun) $(bun --version)"

# 3. JavaScript dependencies, exactly as locked.
say "dependencies (bun install --frozen-lockfile)"
bun install --frozen-lockfile

# 4. Sandbox preparation (precompiled C++ header), when the sandbox provides the step.
if [ -f scripts/prepare-sandbox.ts ]; then
  say "sandbox preparation (bun scripts/prepare-sandbox.ts)"
  bun scripts/prepare-sandbox.ts
fi
