"""What the numbers were measured on: machine, load, interpreter, library versions, command."""

from __future__ import annotations

import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Final

__all__ = ["LIBRARIES", "load_average", "machine"]

LIBRARIES: Final = (
    "pydantic",
    "pydantic-ai-slim",
    "jsonschema",
    "jsonschema-rs",
    "sqlalchemy",
    "hypothesis",
    "pytest",
)


def _cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return platform.processor() or "unknown"
    for line in text.splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def _memory_gib() -> float | None:
    try:
        text = Path("/proc/meminfo").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) / 1024 / 1024
    return None


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def load_average() -> list[float]:
    """Return the 1, 5 and 15 minute load averages (``uptime``)."""
    return [round(value, 2) for value in os.getloadavg()]


def machine() -> dict[str, Any]:
    """Return the machine description for the report.

    Keys: ``date_utc``, ``command``, ``cpus`` (usable by this process, as ``nproc``),
    ``cpu_model``, ``memory_gib``, ``python``, ``platform``, ``libraries`` (name -> version),
    ``load_average_start``.
    """
    return {
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": " ".join([Path(sys.executable).name, "-m", "bench", *sys.argv[1:]]),
        "cpus": len(os.sched_getaffinity(0)),
        "cpu_model": _cpu_model(),
        "memory_gib": _memory_gib(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "libraries": {name: _version(name) for name in LIBRARIES},
        "load_average_start": load_average(),
    }
