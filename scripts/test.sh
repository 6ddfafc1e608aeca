#!/usr/bin/env bash
# Command (2): set up (test tools and Debian's chromium, caddy and certutil included) and run every test, browser tests too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
exec .venv/bin/python -m pytest -n 2 --dist loadfile "$@"
