#!/usr/bin/env bash
# Set up a fresh machine for Spellbook Table: a virtualenv with the project installed.
#   scripts/setup.sh          runtime only
#   scripts/setup.sh --test   plus the test tools and Debian's chromium for the browser tests
# Needs only python3 (with venv) on the machine; chromium comes from apt (root or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  python3 -m venv .venv
fi
stamp=".venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)-$want_test"
if [ ! -f "$stamp" ]; then
  echo "==> installing Python packages"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  if [ "$want_test" = 1 ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  else
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
  fi
  rm -f .venv/.installed-*
  touch "$stamp"
fi

if [ "$want_test" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  echo "==> installing Debian's chromium for the browser tests"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium fonts-liberation >/dev/null
fi
