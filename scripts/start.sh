#!/usr/bin/env bash
# Command (1): set up, build the whole print kit into output/, then serve the companion on an
# embedded SQLite database (instance/companion.sqlite3).
# The QR codes on the cards point at the instance's saved address (companion base-url), else this
# machine's address on the local network, so phones at the table can open them; SPELLBOOK_BASE_URL
# overrides both (e.g. a public server).
# PORT (default 8000) is the companion's port; extra arguments go to `companion serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-8000}"
# the port first: a busy port is said at once, before any install or build
if ! python3 - "$port" <<'PY'
import socket, sys
port = int(sys.argv[1])
with socket.socket() as probe:
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        probe.bind(("0.0.0.0", port))
    except OSError as error:
        print(f"start: port {port} is in use ({error.strerror}): stop the server there, or choose another "
              f"port, e.g. PORT={port + 1} scripts/start.sh", file=sys.stderr)
        sys.exit(1)
PY
then
  exit 1
fi
scripts/setup.sh
# the address on the cards: $SPELLBOOK_BASE_URL, else the instance's saved one (companion base-url), else
# this machine's address on the network today (said, since a router may hand out another one next time)
base_url="$(.venv/bin/python - "$port" <<'PY'
import sys
from cardgen.site import SiteError, resolve_base_url
from companion.cli import phone_urls
try:
    url, source = resolve_base_url(None, phone_urls("0.0.0.0", int(sys.argv[1]))[0].rstrip("/"))
except SiteError as error:
    sys.exit(f"start: {error}")
if source == "default":
    print(f"start: the cards will carry {url}, this machine's address on the network today; for prints that "
          "last, save a stable name first: .venv/bin/companion base-url http://NAME.local:PORT (docs/serving.md)",
          file=sys.stderr)
print(url)
PY
)"
.venv/bin/cardgen build --game all --base-url "$base_url" --out output
exec .venv/bin/companion serve --host 0.0.0.0 --port "$port" "$@"
