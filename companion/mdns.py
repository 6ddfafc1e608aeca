"""A stable name on the local network: ``companion serve --mdns NAME`` answers for ``NAME.local``.

Phones, laptops and most routers' clients resolve ``*.local`` names by multicast DNS (Bonjour on iOS
and macOS, Android 12 and later, Avahi on Linux, Windows 10 and later). python-zeroconf answers those
questions for this machine: a service ``Spellbook Table on NAME`` of type ``_http._tcp`` whose host
is ``NAME.local.`` at this machine's current addresses. So print the cards with
``--base-url http://NAME.local:8000`` and they keep working when the router hands the laptop another
address next week: the name is looked up afresh by each phone.

It runs as a process of its own beside gunicorn's master (``python -m companion.mdns NAME PORT``):
zeroconf runs threads, and gunicorn forks its workers from the master, so keeping them apart avoids
forking a threaded process. The process dies with the server (``PR_SET_PDEATHSIG``, see
:func:`start`), says goodbye on the network when it is stopped (``SIGTERM``), and looks at the
machine's addresses every few seconds, announcing the new ones when they change (a laptop that
moves to another Wi-Fi while serving).
"""

from __future__ import annotations

import ctypes
import ipaddress
import re
import signal
import subprocess
import sys
import threading
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from zeroconf import ServiceInfo

SERVICE_TYPE = "_http._tcp.local."
NAME = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
CHECK_SECONDS = 5.0  # how often the machine's addresses are looked at again


def valid_name(name: str) -> str:
    """``name`` as one lower-case DNS label (``spellbook`` for ``spellbook.local``), or ValueError."""
    label = name.strip().lower().removesuffix(".local").removesuffix(".local.")
    if not NAME.match(label):
        raise ValueError(f"{name!r} cannot be a .local name: use 1 to 63 letters, digits or '-' "
                         "(not first or last), e.g. spellbook")
    return label


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback and link-local (what phones can reach)."""
    import ifaddr  # zeroconf's own dependency for listing interfaces

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: (address, flowinfo, scope); phones at a table reach the IPv4 one
            address = ipaddress.ip_address(ip.ip)
            if not (address.is_loopback or address.is_link_local or address.is_unspecified) and ip.ip not in found:
                found.append(ip.ip)
    return sorted(found)


def service_info(name: str, port: int, addresses: Sequence[str]) -> ServiceInfo:
    from zeroconf import ServiceInfo

    return ServiceInfo(SERVICE_TYPE, f"Spellbook Table on {name}.{SERVICE_TYPE}", port=port,
                       server=f"{name}.local.", addresses=[ipaddress.ip_address(a).packed for a in addresses],
                       properties={"path": "/"})


def announce(name: str, port: int, stop: threading.Event, *, check_seconds: float = CHECK_SECONDS) -> None:
    """Answer for ``name.local`` (and the service) until ``stop`` is set, then say goodbye."""
    from zeroconf import IPVersion, Zeroconf

    zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
    addresses = local_addresses()
    info = service_info(name, port, addresses)
    try:
        zeroconf.register_service(info)  # a name another machine already announces: NonUniqueNameException
        print(f"Announced {name}.local (port {port}) at {', '.join(addresses) or 'no address yet'}", flush=True)
        while not stop.wait(check_seconds):
            now = local_addresses()
            if now != addresses:
                addresses = now
                info = service_info(name, port, addresses)
                zeroconf.update_service(info)
                print(f"{name}.local now at {', '.join(addresses) or 'no address'}", flush=True)
        zeroconf.unregister_service(info)
    finally:
        zeroconf.close()


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _die_with_parent() -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: `companion serve` stops it on its way out (see companion.cli)


def start(name: str, port: int) -> subprocess.Popen[bytes]:
    """Run the announcement in a process of its own that stops when this one ends."""
    return subprocess.Popen([sys.executable, "-m", "companion.mdns", name, str(port)], preexec_fn=_die_with_parent)


def why_not(error: Exception) -> str:
    """Why an announcement failed, in words (zeroconf's NonUniqueNameException says nothing of itself)."""
    from zeroconf import NonUniqueNameException

    if isinstance(error, NonUniqueNameException):
        return ("another machine on this network already announces that name: choose another "
                "(companion serve --mdns OTHER-NAME); the server goes on serving at its address")
    return str(error) or type(error).__name__


def main(argv: Sequence[str]) -> int:
    name, port = valid_name(argv[0]), int(argv[1])
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        announce(name, port, stop)
    except Exception as error:  # a name already taken, no network at all: said, and the server goes on
        print(f"Could not announce {name}.local: {why_not(error)}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
