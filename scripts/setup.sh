#!/usr/bin/env bash
# Set up a fresh machine for Spellbook Table: a virtualenv with the project installed.
#   scripts/setup.sh          runtime only
#   scripts/setup.sh --test   plus the test tools, and Debian's chromium, caddy and certutil for the tests
# Needs only python3 (with venv) on the machine; the Debian packages come from apt (root or sudo).
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

# Debian packages the tests run for real: chromium (browser tests), caddy (the https front of
# docs/serving.md, tests/e2e/test_https.py) and libnss3-tools (certutil: the test's Chromium trusts
# Caddy's own root the way a phone does). Installing caddy does not start it: the tests run their own.
if [ "$want_test" = 1 ]; then
  missing=""
  [ -x /usr/bin/chromium ] || missing="$missing chromium fonts-liberation"
  command -v caddy >/dev/null || missing="$missing caddy"
  command -v certutil >/dev/null || missing="$missing libnss3-tools"
  if [ -n "$missing" ]; then
    echo "==> installing Debian's$missing for the tests"
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $missing >/dev/null
  fi
fi
