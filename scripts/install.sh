#!/usr/bin/env bash
# Installs what the online judge needs, only what is missing, and says what it
# installs. Idempotent: a second run installs nothing. Shared by
# scripts/start.sh and scripts/test.sh, which source it so that a Bun it puts
# on PATH stays there for them. Targets Debian 12 as root (or with sudo);
# elsewhere it skips the Debian packages and says so.
#
# INSTALL_ROLE (or `--role NAME` when run, not sourced) says for what:
#   runtime  serving and judging only (start.sh): the sandbox, the compilers,
#            Bun, the production dependencies, the precompiled header
#   test     (the default) all of that plus what the tests need: Chromium and
#            the development dependencies (test.sh)
#   judge    a judge host: what runtime installs, plus a systemd unit for
#            `bun run worker -- --server ... --token-file ...` (restart on
#            failure), written to JUDGE_UNIT_DIR (default /etc/systemd/system)
#   isolate  what runtime installs, plus ioi/isolate built from
#            ISOLATE_SOURCE (a release tarball or a checkout) into
#            ISOLATE_PREFIX (default /usr/local/lib/oj-isolate) with its own
#            box root and uids; without ISOLATE_SOURCE it says to use the
#            upstream packages (the production choice); and checks that a
#            size-limited tmpfs mounts here (the server mounts one over each
#            isolate box, docs/sandbox.md "box quota")
# The test role also builds isolate from the vendored sources for the tests
# (scripts/build-isolate.ts --for-tests, called by scripts/test.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'install: %s\n' "$*"; }

INSTALL_ROLE="${INSTALL_ROLE:-test}"
if [ "${1:-}" = "--role" ] && [ -n "${2:-}" ]; then INSTALL_ROLE="$2"; fi
case "$INSTALL_ROLE" in
  runtime | test | judge | isolate) ;;
  *) printf 'install: ERROR: unknown role %s (runtime, test, judge or isolate)\n' "$INSTALL_ROLE" >&2; exit 1 ;;
esac
say "role: $INSTALL_ROLE"

# 1. Bun, from npm (Node and npm are assumed present). npm may block bun's
#    postinstall step (it links the native binary from @oven/bun-<platform>);
#    so the result is checked with `bun --version`, the step is run by hand
#    once when that fails, and the script stops with a clear message otherwise.
BUN_MIN_VERSION="1.2.0" # the text lockfile bun.lock needs Bun 1.2 or newer
fail() { printf 'install: ERROR: %s\n' "$*" >&2; exit 1; }
# Prints the version of the bun on PATH, or nothing (never fails: used in assignments under set -e).
bun_version() { { bun --version 2>/dev/null | grep -Eo '^[0-9]+\.[0-9]+\.[0-9]+' | head -1; } || true; }
# A bun installed earlier but not on PATH (npm's global bin, Bun's own installer) is used, not reinstalled.
find_bun() {
  command -v bun >/dev/null 2>&1 && return 0
  local dir npm_prefix
  npm_prefix="$(npm prefix -g 2>/dev/null || true)"
  for dir in "${HOME:+$HOME/.bun/bin}" "${npm_prefix:+$npm_prefix/bin}"; do
    if [ -n "$dir" ] && [ -x "$dir/bun" ]; then
      export PATH="$dir:$PATH"
      hash -r
      return 0
    fi
  done
  return 1
}
if ! find_bun; then
  command -v npm >/dev/null 2>&1 ||
    fail "Bun is not installed and npm is missing: install Node.js and npm (apt-get install npm) or Bun (https://bun.sh), then run this again"
  say "Bun (npm install -g bun)"
  npm install -g bun || fail "npm install -g bun failed (npm's message is above)"
  hash -r
  find_bun || fail "npm installed bun, but no bun is on PATH (looked in $(npm prefix -g)/bin too)"
fi
npm_bun_dir="$(npm root -g 2>/dev/null || true)/bun"
if [ -z "$(bun_version)" ] && [ -f "$npm_bun_dir/install.js" ] &&
  [ "$(readlink -f "$(command -v bun)")" = "$(readlink -f "$npm_bun_dir/bin/bun.exe")" ]; then
  say "$(command -v bun) does not run (npm skipped bun's postinstall?); running it now: node $npm_bun_dir/install.js"
  (cd "$npm_bun_dir" && node install.js) || true
  hash -r
fi
version="$(bun_version)"
[ -n "$version" ] ||
  fail "'$(command -v bun) --version' does not print a version, so Bun is not usable; reinstall it (npm install -g bun --allow-scripts=bun, or https://bun.sh) and run this again"
if [ "$(printf '%s\n%s\n' "$BUN_MIN_VERSION" "$version" | sort -V | head -1)" != "$BUN_MIN_VERSION" ]; then
  fail "Bun $version at $(command -v bun) is older than $BUN_MIN_VERSION; upgrade it (bun upgrade, or npm install -g bun) and run this again"
fi
say "using $(command -v bun) $version"

# 2. Debian packages: the sandbox (bubblewrap), the compilers and runtimes of
#    the languages the operator enables (LANGUAGES, comma-separated ids of
#    isolate/languages; default cpp,c,java,py,pypy; the test role: all of them,
#    since the tests judge every language); for tests, the browser they drive.
#    Kotlin is not a Debian package new enough (1.3; the judge needs 1.7+).
if [ "$INSTALL_ROLE" = "test" ]; then LANGUAGES="${LANGUAGES:-cpp,c,java,py,pypy,js,go,rust}"; fi
LANGUAGES="${LANGUAGES:-cpp,c,java,py,pypy}"
DEB_PACKAGES=(bubblewrap)
# Each language's packages come from its record in isolate/languages (`requires`), the one place they are written.
language_packages="$(bun scripts/language-packages.ts "$LANGUAGES")" || exit 1
for pkg in $language_packages; do
  case " ${DEB_PACKAGES[*]} " in *" $pkg "*) ;; *) DEB_PACKAGES+=("$pkg") ;; esac
done
say "languages: $LANGUAGES"
# Tests also start their own LDAP directory (slapd; certificates by openssl) and
# reverse proxy (nginx-light: the documented proxy setup runs through it), and a
# mail server to receive what the site sends (python3-aiosmtpd: tests/mail/smtp-sink.py).
if [ "$INSTALL_ROLE" = "test" ]; then DEB_PACKAGES+=(chromium slapd openssl nginx-light python3-aiosmtpd); fi
# Building isolate (tests: from the vendored sources; the isolate role: from ISOLATE_SOURCE).
if [ "$INSTALL_ROLE" = "test" ] || [ "$INSTALL_ROLE" = "isolate" ]; then DEB_PACKAGES+=(make gcc libcap-dev libseccomp-dev); fi
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
  say "not a Debian system: install bubblewrap (and for tests chromium) yourself, and the compilers of LANGUAGES ($LANGUAGES; Debian names them: $language_packages)"
fi

# 3. JavaScript dependencies, exactly as locked.
if [ "$INSTALL_ROLE" = "runtime" ] || [ "$INSTALL_ROLE" = "judge" ] || [ "$INSTALL_ROLE" = "isolate" ]; then
  say "dependencies (bun install --frozen-lockfile --production)"
  bun install --frozen-lockfile --production
else
  say "dependencies (bun install --frozen-lockfile)"
  bun install --frozen-lockfile
fi

# 4. Sandbox preparation (precompiled C++ header), when the sandbox provides the step.
if [ -f scripts/prepare-sandbox.ts ]; then
  say "sandbox preparation (bun scripts/prepare-sandbox.ts)"
  bun scripts/prepare-sandbox.ts
fi

# 5. A judge host's service: the worker against the web server's judge API.
if [ "$INSTALL_ROLE" = "judge" ]; then
  unit_dir="${JUDGE_UNIT_DIR:-/etc/systemd/system}"
  if [ -d "$unit_dir" ]; then
    unit="$unit_dir/oj-judge.service"
    bun_bin="$(command -v bun)"
    cat >"$unit" <<UNIT
# Written by scripts/install.sh --role judge. Put the web server's URL in
# /etc/oj-judge.env (OJ_SERVER=https://judge.example.edu) and the host's token
# (bun run judge-hosts -- add NAME, on the web server) in /etc/oj/judge.token
# (chmod 600), then: systemctl daemon-reload && systemctl enable --now oj-judge
[Unit]
Description=Online judge: judge host
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
WorkingDirectory=$PWD
Environment=NODE_ENV=production
Environment=DATA_DIR=$PWD/data
EnvironmentFile=/etc/oj-judge.env
ExecStart=$bun_bin src/worker.ts --server \${OJ_SERVER} --token-file /etc/oj/judge.token
# SIGTERM gives the jobs in hand back to the server's queue.
KillSignal=SIGTERM
TimeoutStopSec=30
Restart=on-failure
RestartSec=3

[Install]
WantedBy=multi-user.target
UNIT
    say "judge host service written: $unit (see its first lines for the two files it reads)"
  else
    say "no $unit_dir: no systemd unit written (run: bun run worker -- --server URL --token-file FILE)"
  fi
fi

# 6. ioi/isolate for an operator: built from a source they point at, or the upstream packages.
if [ "$INSTALL_ROLE" = "isolate" ]; then
  if [ -n "${ISOLATE_SOURCE:-}" ]; then
    prefix="${ISOLATE_PREFIX:-/usr/local/lib/oj-isolate}"
    say "isolate from $ISOLATE_SOURCE into $prefix (bun scripts/build-isolate.ts)"
    bun scripts/build-isolate.ts --source "$ISOLATE_SOURCE" --prefix "$prefix" --first-uid "${ISOLATE_FIRST_UID:-50000}" --num-boxes "${ISOLATE_NUM_BOXES:-1000}"
    say "then start with SANDBOX=isolate ISOLATE_BIN=$prefix/bin/isolate (isolate 1.10.x on cgroup v1 hosts, 2.1 or newer on cgroup v2)"
  else
    say "isolate: install the upstream packages (https://github.com/ioi/isolate: Debian/Ubuntu packages from 2.1 on; 1.10.x from source on cgroup v1 hosts),"
    say "  or run again with ISOLATE_SOURCE=/path/to/isolate-VERSION.tar.gz (or a checkout) to build one here; then SANDBOX=isolate"
  fi
fi

# 7. isolate's boxes are bounded by a tmpfs each (size and files), which the server mounts over
#    every box itself at run time (isolate's own --quota needs user quotas on the box root's file
#    system, which this machine kind's kernel lacks). Nothing to install; checked here, so that a
#    host where the isolate backend would refuse to start says so now.
if [ "$INSTALL_ROLE" = "isolate" ]; then
  if command -v mount >/dev/null 2>&1 && command -v umount >/dev/null 2>&1 && command -v rmdir >/dev/null 2>&1; then
    probe="${TMPDIR:-/tmp}/oj-install-tmpfs-probe-$$"
    mkdir -p "$probe"
    if mount -t tmpfs -o size=1m,nr_inodes=16 oj-install-probe "$probe" 2>/dev/null; then
      umount "$probe"
      say "isolate boxes: the server mounts a 256 MiB / 4096-file tmpfs over each box; mounting works here (the server must run as root, or with CAP_SYS_ADMIN)"
    else
      say "isolate boxes: WARNING: a tmpfs cannot be mounted here (uid $(id -u)), so the isolate backend will refuse to start: run the server as root (or with CAP_SYS_ADMIN), or use SANDBOX=bwrap"
    fi
    rmdir "$probe"
  else
    say "isolate boxes: mount(8) is missing, so the tmpfs each box needs cannot be checked (apt install mount)"
  fi
fi
