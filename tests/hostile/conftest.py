"""Shared helpers of the hostile-IUT corpus: start a hostile IUT, prove none of it is left."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "hostile_iut.py"
ROOT = HERE.parents[1]
GONE_WITHIN_S = 5.0
"""How long a SIGKILLed process may take to disappear (a loaded machine is slow to schedule)."""


def _stat(pid: int) -> tuple[str, int] | None:
    """``(state, pgrp)`` of a live process, or None (gone or a zombie)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    state, pgrp = fields[0], int(fields[2])
    return None if state in {"Z", "X"} else (state, pgrp)


def group_members(pgid: int) -> list[int]:
    """Pids of the live (non-zombie) processes of process group ``pgid``."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None and found[1] == pgid:
                members.append(int(entry.name))
    return members


KIT_FILLED = ("elapsed_ms", "model_requests")
"""Observation members only the kit fills (the kit's clock, the model endpoint's requests)."""


@dataclass
class Hostile:
    """One hostile IUT of the corpus: its command and the pids it reported."""

    mode: str
    pidfile: Path
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    """The IUT's environment (``HOSTILE_REPLAY`` once :meth:`replay` was called)."""

    def replay(self, recorded: dict[str, dict]) -> None:
        """Let the IUT answer with ``recorded`` observations (by fixture id), not the Harness.

        The members the kit's adapter adds to what an IUT sends (:data:`KIT_FILLED`) are left
        out: an IUT that sent them would be refused (``conformance.adapters._endpoint``).
        """
        path = self.pidfile.with_suffix(".replay.json")
        as_sent = {
            fixture_id: {k: v for k, v in observation.items() if k not in KIT_FILLED}
            for fixture_id, observation in recorded.items()
        }
        path.write_text(json.dumps(as_sent), encoding="utf-8")
        self.env["HOSTILE_REPLAY"] = str(path)

    @property
    def argv(self) -> list[str]:
        """The IUT command, as an argv list."""
        return [sys.executable, str(HOSTILE), self.mode, str(self.pidfile)]

    @property
    def command(self) -> str:
        """The IUT command, as ``srdh run --iut`` takes it."""
        return " ".join(self.argv)

    def pids(self) -> list[int]:
        """Every pid the IUT (and its descendants) reported, in order."""
        if not self.pidfile.exists():
            return []
        return [int(p) for p in self.pidfile.read_text(encoding="ascii").split()]

    def leftovers(self) -> list[int]:
        """Live processes of the IUT: its process groups, and any reported pid still alive.

        Polls for at most :data:`GONE_WITHIN_S` (a killed process needs to be scheduled to die);
        returns at once when nothing is left.
        """
        deadline = time.monotonic() + GONE_WITHIN_S
        while True:
            pids = self.pids()
            left = {pid for pid in pids if _stat(pid) is not None}
            for pgid in pids[:1]:  # the leader's pid is its group id (own session)
                left.update(group_members(pgid))
            if not left or time.monotonic() > deadline:
                return sorted(left)
            time.sleep(0.02)


@pytest.fixture
def hostile(tmp_path: Path):
    """``hostile(mode)`` -> a :class:`Hostile` writing its pids under ``tmp_path``."""
    made: list[Hostile] = []

    def make(mode: str) -> Hostile:
        item = Hostile(mode, tmp_path / f"{mode}-{len(made)}.pids")
        made.append(item)
        return item

    return make
