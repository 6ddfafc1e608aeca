#!/usr/bin/env bash
# Command (2): set up (test tools and Debian's chromium, caddy and certutil included), check lint and types,
# and run every test, browser tests too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
echo "==> lint (ruff) and types (mypy); settings in pyproject.toml"
.venv/bin/ruff check --quiet .
.venv/bin/mypy
exec .venv/bin/python -m pytest -n 2 --dist loadfile "$@"
