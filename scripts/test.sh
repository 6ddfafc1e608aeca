#!/usr/bin/env bash
# Command (2): set up (test tools and Debian's chromium, caddy and certutil included), check lint and types,
# and run every test, browser tests too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
echo "==> lint (ruff) and types (mypy); settings in pyproject.toml"
.venv/bin/ruff check --quiet .
.venv/bin/mypy
# the tests start many Python processes (dozens of servers, each a master and its workers; CLIs): each reuses the
# compiled bytecode instead of compiling ~660 modules again (0.2 s CPU a process), kept in .venv, not the tree
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
# the tests' scratch folders (SQLite files, PostgreSQL clusters, browser profiles, kits) in memory where the machine
# has a tmpfs: the same files and fsyncs, without waiting on the disk (a third of the run's time on a busy one)
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && scratch="$(mktemp -d /dev/shm/spellbook-tests.XXXXXX)"; then
  chmod 1777 "$scratch"  # as /tmp: the PostgreSQL clusters run as an unprivileged user
  export TMPDIR="$scratch"
  trap 'rm -rf "$scratch"' EXIT
fi
.venv/bin/python -m pytest -n 2 --dist loadfile "$@"
