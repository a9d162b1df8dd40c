"""Verify steps backed by kit parts built elsewhere: traceability, suite, mutant self-test.

Each part is looked up when the step runs. A part that is not importable makes its step FAILED
("not available"), never a silent pass.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from conformance.verify._outcome import Outcome, not_available

if TYPE_CHECKING:
    from conformance.verify._outcome import VerifyContext

__all__ = ["conformance_suite", "mutant_selftest", "optional_attr", "traceability"]


def optional_attr(module: str, name: str) -> Any:  # noqa: ANN401 - whatever the module exports
    """``module.name`` if ``module`` imports and has it, else ``None``."""
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return None
        raise
    return getattr(loaded, name, None)


def traceability(ctx: VerifyContext) -> Outcome:
    """Build the traceability matrix of ``<repo>/openspec`` (spec ↔ Gherkin ↔ tests)."""
    build = optional_attr("conformance.traceability", "build_matrix")
    if build is None:
        return not_available("conformance.traceability.build_matrix")
    del ctx
    return not_available("conformance.traceability (integration pending)")


def conformance_suite(ctx: VerifyContext) -> Outcome:
    """Run the conformance suite against the reference harness, in process."""
    run = optional_attr("conformance.suite", "run_suite")
    if run is None:
        return not_available("conformance.suite.run_suite")
    del ctx
    return not_available("conformance.suite (integration pending)")


def mutant_selftest(ctx: VerifyContext) -> Outcome:
    """Run the mutant self-test: the suite must fail every broken harness."""
    run = optional_attr("conformance.selftest", "run_selftest")
    if run is None:
        return not_available("conformance.selftest.run_selftest")
    del ctx
    return not_available("conformance.selftest (integration pending)")
