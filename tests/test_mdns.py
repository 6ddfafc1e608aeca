"""``companion serve --mdns NAME``: the server answers for ``NAME.local`` on the local network.

Real multicast DNS on this machine's network interface: a python-zeroconf browser in the test sees the
service a real ``companion serve`` announces, resolves ``NAME.local`` to an address the server answers
on, sees the goodbye when the server stops, and sees a new address announced when the machine's
addresses change.
"""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import pytest
import requests
from click.testing import CliRunner
from zeroconf import (
    AddressResolver,
    IPVersion,
    ServiceBrowser,
    ServiceStateChange,
    Zeroconf,
)

from companion import mdns
from companion.cli import main
from companion.served import running_server

pytestmark = pytest.mark.served

CEILING = 60.0  # seconds: generous, the machine is shared


def wait_for(condition: Callable[[], Any], what: str, ceiling: float = CEILING) -> Any:
    deadline = time.monotonic() + ceiling
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not within {ceiling} s: {what}")


def unique_name() -> str:
    return f"spellbook-test-{uuid.uuid4().hex[:8]}"


def resolve(name: str) -> list[str]:
    """``name.local`` looked up afresh by multicast DNS (a new Zeroconf: nothing cached), in a thread of its own:
    zeroconf's blocking calls refuse a thread that runs an event loop, as the browser tests' Playwright does in
    the worker process that ran them first."""
    return in_thread(_resolve, name)


def in_thread(call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)`` in a thread that runs no event loop (see :func:`resolve`)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(call, *args).result()


def _resolve(name: str) -> list[str]:
    zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
    try:
        resolver = AddressResolver(f"{name}.local.")
        return resolver.parsed_addresses() if resolver.request(zeroconf, 3000) else []
    finally:
        zeroconf.close()


def test_serve_announces_its_name_and_the_name_leads_to_the_server(tmp_path: Path) -> None:
    in_thread(serve_announces_its_name, tmp_path)   # zeroconf's blocking API, away from Playwright's loop


def serve_announces_its_name(tmp_path: Path) -> None:
    name = unique_name()
    instance = f"Spellbook Table on {name}.{mdns.SERVICE_TYPE}"
    seen: list[tuple[str, ServiceStateChange]] = []
    browser_zc = Zeroconf(ip_version=IPVersion.V4Only)

    def changed(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        seen.append((name, state_change))

    browser = ServiceBrowser(browser_zc, mdns.SERVICE_TYPE, handlers=[changed])
    try:
        with running_server(tmp_path, ("--host", "0.0.0.0", "--workers", "1", "--mdns", name)) as server:
            port = int(server.base.rsplit(":", 1)[1])
            assert f"Open on the phones: http://{name}.local:{port}/" in server.log()
            wait_for(lambda: (instance, ServiceStateChange.Added) in seen, f"the browser sees {instance}")
            info = browser_zc.get_service_info(mdns.SERVICE_TYPE, instance, timeout=int(CEILING * 1000))
            assert info is not None and info.port == port and info.server == f"{name}.local."
            addresses = wait_for(lambda: resolve(name), f"{name}.local resolves")
            assert set(addresses) == set(mdns.local_addresses()), addresses
            home = requests.get(f"http://{addresses[0]}:{port}/", timeout=60)  # the name leads to the server
            assert home.status_code == 200 and "Spellbook Table" in home.text
        # stopped: the announcer said goodbye, so browsers drop it at once rather than after its TTL
        wait_for(lambda: (instance, ServiceStateChange.Removed) in seen, f"the browser sees {instance} leave")
    finally:
        browser.cancel()
        browser_zc.close()


def test_a_new_address_of_the_machine_is_announced_under_the_same_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """The router hands the laptop another address while it serves: phones asking for the name get the new one.
    (The machine's interfaces cannot be changed here, so the list the announcer reads is changed instead.)"""
    name = unique_name()
    first = mdns.local_addresses()
    assert first, "this machine has no network address to announce"
    now = {"addresses": first}
    monkeypatch.setattr(mdns, "local_addresses", lambda: now["addresses"])
    stop = threading.Event()
    thread = threading.Thread(target=mdns.announce, args=(name, 8000, stop), kwargs={"check_seconds": 0.2})
    thread.start()
    try:
        wait_for(lambda: resolve(name) == first, f"{name}.local at {first}")
        now["addresses"] = ["192.0.2.77"]  # TEST-NET-1: never a real machine
        wait_for(lambda: resolve(name) == ["192.0.2.77"], f"{name}.local at its new address")
    finally:
        stop.set()
        thread.join(timeout=CEILING)
    assert not thread.is_alive()


@pytest.mark.parametrize("bad", ["-spellbook", "spell book", "a" * 64, "bücher", ""])
def test_a_name_that_cannot_be_a_dns_label_is_refused_before_serving(bad: str) -> None:
    result = CliRunner().invoke(main, ["serve", "--mdns", bad, "--no-qr"])
    assert result.exit_code == 2 and "cannot be a .local name" in result.output, result.output


def test_names_are_one_lower_case_label() -> None:
    assert mdns.valid_name("Spellbook") == "spellbook"
    assert mdns.valid_name("club-7.local") == "club-7"


def test_a_name_another_machine_announces_is_said_in_words() -> None:
    """zeroconf's NonUniqueNameException has no message: the server printed "Could not announce spellbook.local: "
    and nothing after the colon, where docs/serving.md promises it says so and to choose another name."""
    from zeroconf import NonUniqueNameException

    said = mdns.why_not(NonUniqueNameException())
    assert "already announces that name" in said and "--mdns" in said
    assert mdns.why_not(OSError("no network")) == "no network" and mdns.why_not(RuntimeError()) == "RuntimeError"
