"""Differential fuzzing: the linter's verdicts equal the official CLI's on generated trees.

The full campaign (1,000 trees per seed) is ``python -m conformance.openspec.parity``; the suite
runs 30 trees in one batch (one CLI call) so that CI keeps the referee in the loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.openspec import lint_items
from conformance.openspec.parity import compare_batch, generate_batch, run_campaign

from .conftest import CLI

if TYPE_CHECKING:
    from pathlib import Path

    from .conftest import RunCli

TREES = 30


def test_thirty_generated_trees_agree_with_the_official_cli(openspec_cli: RunCli) -> None:
    """30 generated trees (60 items): zero verdict or requirement-count disagreements."""
    del openspec_cli  # fails the test (never skips) when Node or the CLI is missing
    result = run_campaign(CLI, trees=TREES, seed=20261130, batch=TREES)
    assert result.trees == TREES
    assert result.items == 2 * TREES
    assert result.counts_compared == TREES
    assert result.cli_calls == 2
    assert result.disagreements == []
    # the corpus exercises both verdicts, so agreement is not trivially "all invalid"
    assert 0 < result.valid_items < result.items


def test_generated_trees_hold_the_hard_parts(tmp_path: Path) -> None:
    """The generator really emits fences, CRLF, a BOM, non-Latin names and every delta kind."""
    generate_batch(tmp_path, 0, 60, seed=20261130)
    data = b"".join(p.read_bytes() for p in sorted(tmp_path.rglob("*.md")))
    text = data.decode("utf-8")
    for needle in ("```", "~~~", "\r\n", "\ufeff", "告警", "## ADDED", "## MODIFIED", "FROM:"):
        assert needle in text, needle
    assert "## REMOVED" in text or "## Removed" in text.title()


def test_a_kit_fault_is_seen_as_a_disagreement(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Breaking the kit's fence rule (CommonMark-style: indented fences ignored) is caught."""
    from conformance.openspec import _source  # noqa: PLC0415 - patched internal

    original = _source.code_fence_mask

    def commonmark_like(lines: list[str]) -> list[bool]:
        return original([ln if not ln.startswith(("  ", "\t", "- ")) else "x" for ln in lines])

    monkeypatch.setattr(_source, "code_fence_mask", commonmark_like)
    generate_batch(tmp_path, 0, TREES, seed=20261130)
    from conformance.openspec.parity import ParityResult  # noqa: PLC0415

    result = ParityResult()
    compare_batch(CLI, tmp_path, result)
    assert result.disagreements, "a wrong fence rule must disagree with the CLI somewhere"
    assert lint_items(tmp_path, kit_rules=False)
