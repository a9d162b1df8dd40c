"""The guides of docs/ name files that exist and commands that the CLI has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.cli import app

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ("adding-a-scenario.md", "implementers.md")
_TOP = (
    "conformance/",
    "contracts/",
    "reference_harness/",
    "features/",
    "schemas/",
    "tests/",
    "docs/",
    "openspec/",
)


@pytest.mark.parametrize("guide", GUIDES)
def test_every_repository_path_a_guide_names_exists(guide: str) -> None:
    """Each backticked path into the repository (without a placeholder) exists."""
    text = (ROOT / "docs" / guide).read_text(encoding="utf-8")
    paths = {
        p.split("::")[0]
        for p in re.findall(r"`([A-Za-z_./-]+)`", text)
        if p.startswith(_TOP) and "<" not in p
    }
    assert paths, guide
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert missing == [], guide


@pytest.mark.parametrize("guide", GUIDES)
def test_every_srdh_command_a_guide_names_exists(guide: str) -> None:
    """Each ``srdh <command>`` in a guide is a registered command or command group."""
    text = (ROOT / "docs" / guide).read_text(encoding="utf-8")
    groups = {g.typer_instance.info.name for g in app.registered_groups}
    commands = {c.name for c in app.registered_commands} | groups
    named = set(re.findall(r"\bsrdh ([a-z]+)\b", text))
    assert named, guide
    assert named - commands == set(), guide
