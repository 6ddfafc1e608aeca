"""A share of one core for a server process and its workers, through the kernel's CPU controller (cgroups).

On a machine with few cores, two nodes, PostgreSQL and the load client share the same cores, so a second node
adds no core and "two nodes ÷ one" says nothing about scaling. Capping each node at a share of a core (say
0.3) makes the nodes the bottleneck, as they are when each node has a machine of its own and the database one
more: two capped nodes then show whether a second node adds its share of moves, or whether something shared
(the database's locks, its notifications, the per-game row lock) holds them back.

Linux only, as root (or with a delegated cgroup): the v1 ``cpu`` controller (``cpu.cfs_quota_us``) or the
unified v2 hierarchy (``cpu.max``). ``CpuCaps.available()`` says why not where neither can be written.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PERIOD_US = 100_000
_V1 = Path("/sys/fs/cgroup/cpu")
_V2 = Path("/sys/fs/cgroup/unified")


def _tree(pid: int) -> list[int]:
    """``pid`` and its children (a gunicorn master and its workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return [pid]
    return [pid, *(int(c) for c in children)]


class CpuCap:
    """One group: the processes of one server, capped at ``share`` of a core while capped, free otherwise."""

    def __init__(self, root: Path, v2: bool, name: str) -> None:
        self.v2, self.root = v2, root
        self.folder = root / name
        self.folder.mkdir(exist_ok=True)
        if v2:
            with contextlib.suppress(OSError):  # the controller may have to be enabled for the children first
                (root / "cgroup.subtree_control").write_text("+cpu")
        self.pids: list[int] = []

    def add(self, pid: int) -> None:
        for each in _tree(pid):
            (self.folder / "cgroup.procs").write_text(str(each))
            self.pids.append(each)

    def set(self, share: float | None) -> None:
        """Cap the group at ``share`` of one core, or lift the cap (None)."""
        if self.v2:
            (self.folder / "cpu.max").write_text(f"{int(share * PERIOD_US)} {PERIOD_US}" if share else f"max {PERIOD_US}")
        else:
            (self.folder / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (self.folder / "cpu.cfs_quota_us").write_text(str(int(share * PERIOD_US)) if share else "-1")

    def close(self) -> None:
        procs = self.folder / "cgroup.procs"
        with contextlib.suppress(OSError):
            for pid in procs.read_text().split():
                with contextlib.suppress(OSError):
                    (self.root / "cgroup.procs").write_text(pid)
        with contextlib.suppress(OSError):
            self.folder.rmdir()


class CpuCaps:
    """Groups made on demand, removed (their processes handed back to the root group) on close."""

    def __init__(self) -> None:
        self.caps: list[CpuCap] = []
        self.root, self.v2 = (_V1, False) if _writable(_V1 / "cpu.cfs_quota_us") else (_V2, True)

    @staticmethod
    def available() -> str | None:
        """None where caps can be made here, else why not."""
        if not Path("/proc/self/cgroup").exists():
            return "no cgroups (not Linux)"
        if _writable(_V1 / "cpu.cfs_quota_us"):
            return None
        if (_V2 / "cgroup.controllers").exists() and "cpu" in (_V2 / "cgroup.controllers").read_text().split() \
                and os.access(_V2, os.W_OK):
            return None
        return "no writable CPU controller (needs root or a delegated cgroup)"

    def new(self, pid: int) -> CpuCap:
        cap = CpuCap(self.root, self.v2, f"spellbook-bench-{os.getpid()}-{len(self.caps)}")
        self.caps.append(cap)
        cap.add(pid)
        return cap

    def close(self) -> None:
        for cap in self.caps:
            cap.close()


def _writable(path: Path) -> bool:
    return path.parent.is_dir() and os.access(path.parent, os.W_OK)
