#!/usr/bin/env bash
# Set up a fresh machine for Spellbook Table: a virtualenv with the project installed.
#   scripts/setup.sh          runtime only
#   scripts/setup.sh --test   plus the test tools and Debian's chromium for the browser tests
# Needs Python 3.11 or newer with its venv module (on Debian and Ubuntu: apt install python3-venv);
# chromium comes from apt (root or sudo). Packages are installed once per pyproject.toml: a test install
# serves the runtime too, so switching between scripts/start.sh and scripts/test.sh runs pip no more.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

if [ ! -x .venv/bin/python ]; then
  if ! command -v python3 >/dev/null 2>&1; then
    echo "setup: python3 is not installed; Spellbook Table needs Python 3.11 or newer" >&2
    exit 1
  fi
  if ! python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "setup: Spellbook Table needs Python 3.11 or newer; python3 here is $(python3 -V 2>&1)" >&2
    exit 1
  fi
  echo "==> creating .venv"
  if ! python3 -m venv .venv; then
    rm -rf .venv
    echo "setup: python3 could not create a virtualenv; on Debian or Ubuntu install its venv module:" >&2
    echo "  sudo apt install python3-venv" >&2
    exit 1
  fi
fi
installed=".venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)"
if [ ! -f "$installed-1" ] && { [ "$want_test" = 1 ] || [ ! -f "$installed-0" ]; }; then
  echo "==> installing Python packages"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  if [ "$want_test" = 1 ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  else
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
  fi
  for stamp in .venv/.installed-*; do  # an older pyproject.toml's stamps
    case "$stamp" in "$installed"-*) ;; *) rm -f "$stamp" ;; esac
  done
  touch "$installed-$want_test"
fi

if [ "$want_test" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  echo "==> installing Debian's chromium for the browser tests"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium fonts-liberation >/dev/null
fi
