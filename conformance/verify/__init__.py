"""``srdh verify``: the main job on a repository with ``openspec/``.

Steps, in order (:data:`STEP_NAMES`): spec lint, schemas + examples, freeze lock, codegen drift,
traceability, conformance suite (reference harness, in process), vocabulary coverage (the suite's
Runs reach every element of the fixture vocabulary), mutant self-test, gate status.
Kit-internal data (schemas, examples, freeze lock, codegen) is the kit's own contract set; the
spec side (lint, traceability, gate) is the repository's ``openspec/``. :func:`plan_sources`
refuses a repository whose own ``schemas/`` or ``features/`` differ from the kit's
(:class:`MixedSourcesError`) rather than mixing the two.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.verify._kit_steps import REFERENCE_IUT
    from conformance.verify._outcome import Outcome, VerifyContext
    from conformance.verify._runner import (
        DEFAULT_STEPS,
        STEP_NAMES,
        VerifyProgress,
        VerifyResult,
        run_verify,
    )
    from conformance.verify._sources import (
        KitSources,
        MixedSourcesError,
        SourcePlan,
        features_for,
        kit_sources,
        plan_sources,
    )
    from conformance.verify._suite_results import (
        SuiteResultLike,
        describe_error,
        requirements_from_suite,
    )

__all__ = [
    "DEFAULT_STEPS",
    "REFERENCE_IUT",
    "STEP_NAMES",
    "KitSources",
    "MixedSourcesError",
    "Outcome",
    "SourcePlan",
    "SuiteResultLike",
    "VerifyContext",
    "VerifyProgress",
    "VerifyResult",
    "describe_error",
    "features_for",
    "kit_sources",
    "plan_sources",
    "requirements_from_suite",
    "run_verify",
]

_HOMES = {
    "DEFAULT_STEPS": "conformance.verify._runner",
    "KitSources": "conformance.verify._sources",
    "MixedSourcesError": "conformance.verify._sources",
    "Outcome": "conformance.verify._outcome",
    "REFERENCE_IUT": "conformance.verify._kit_steps",
    "STEP_NAMES": "conformance.verify._runner",
    "SourcePlan": "conformance.verify._sources",
    "SuiteResultLike": "conformance.verify._suite_results",
    "VerifyContext": "conformance.verify._outcome",
    "VerifyProgress": "conformance.verify._runner",
    "VerifyResult": "conformance.verify._runner",
    "describe_error": "conformance.verify._suite_results",
    "features_for": "conformance.verify._sources",
    "kit_sources": "conformance.verify._sources",
    "plan_sources": "conformance.verify._sources",
    "requirements_from_suite": "conformance.verify._suite_results",
    "run_verify": "conformance.verify._runner",
}


def __getattr__(name: str) -> Any:  # noqa: ANN401 - a module attribute of any kind
    """Load a public name from its private module on first use (PEP 562).

    ``srdh run`` needs only :func:`requirements_from_suite`; the verify steps (spec lint,
    python-jsonschema, the self-test) load when ``srdh verify`` uses them.
    """
    home = _HOMES.get(name)
    if home is None:
        msg = f"module 'conformance.verify' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """List the public names."""
    return sorted(__all__)
