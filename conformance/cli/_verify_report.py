"""Turn a :class:`VerifyResult` into a :class:`Report`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.cli._kit import KIT_NAME, kit_version
from conformance.reports import Report, Versions

if TYPE_CHECKING:
    from conformance.verify import VerifyResult

__all__ = ["verify_report"]


def verify_report(result: VerifyResult) -> Report:
    """The verify report: its steps, plus suite results and matrix when steps produced them."""
    return Report(
        title="srdh verify",
        kit=Versions(KIT_NAME, kit_version()),
        iut=Versions("reference_harness", kit_version()),
        requirements=(),
        steps=result.steps,
    )
