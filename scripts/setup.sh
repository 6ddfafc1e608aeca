#!/usr/bin/env bash
# Set up a fresh machine for Spellbook Table: a virtualenv with the project installed.
#   scripts/setup.sh          runtime only
#   scripts/setup.sh --test   plus the test tools, and Debian's chromium, caddy, certutil and postgresql for the tests
# Needs Python 3.11 or newer with its venv module (on Debian and Ubuntu: apt install python3-venv); the
# Debian packages come from apt (root or sudo). Packages are installed once per pyproject.toml: a test install
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
  # the pip a new virtualenv brings (Python 3.11 or newer: 22.3 or later) installs the project editable (PEP 660
  # needs 21.3): only an older one is upgraded first (a download and seconds of every fresh set-up)
  if ! .venv/bin/python -c 'import sys, pip; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (21, 3))'; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  fi
  spec="."
  [ "$want_test" = 1 ] && spec=".[test]"
  # uv (Astral's installer, installed by pip into .venv) installs the packages with a third of pip's CPU
  # (12 against 41 s measured for the test set): pip stays the fallback where uv can't be had or fails.
  # uv reads PyPI (or UV_INDEX_URL), not pip's configuration.
  if .venv/bin/python -m pip install --quiet --no-compile --disable-pip-version-check uv >/dev/null 2>&1 \
      && .venv/bin/uv pip install --quiet --python .venv/bin/python -e "$spec"; then
    :
  else
    echo "setup: uv could not install the packages; installing them with pip"
    .venv/bin/python -m pip install --quiet --no-compile --disable-pip-version-check -e "$spec"
  fi
  for stamp in .venv/.installed-*; do  # an older pyproject.toml's stamps
    case "$stamp" in "$installed"-*) ;; *) rm -f "$stamp" ;; esac
  done
  touch "$installed-$want_test"
fi

# Debian packages the tests run for real: chromium (browser tests), caddy (the https front of
# docs/serving.md, tests/e2e/test_https.py), libnss3-tools (certutil: the test's Chromium trusts
# Caddy's own root the way a phone does), and postgresql (the store's second backend: tests/test_postgres.py
# starts a throwaway cluster with its initdb). Installing caddy or postgresql does not start them for the
# tests: they run their own (Debian may start its default cluster; the tests never use it).
if [ "$want_test" = 1 ]; then
  missing=""
  [ -x /usr/bin/chromium ] || missing="$missing chromium fonts-liberation"
  command -v caddy >/dev/null || missing="$missing caddy"
  command -v certutil >/dev/null || missing="$missing libnss3-tools"
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
  if [ -n "$missing" ]; then
    echo "==> installing Debian's$missing for the tests"
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $missing >/dev/null
  fi
fi
