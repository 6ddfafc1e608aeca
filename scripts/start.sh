#!/usr/bin/env bash
# Command (1): set up, build the whole print kit into output/, then serve the companion
# on an embedded SQLite database (instance/companion.sqlite3). Extra arguments go to `companion serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/cardgen build --game all --out output
exec .venv/bin/companion serve "$@"
