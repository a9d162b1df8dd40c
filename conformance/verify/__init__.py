"""``srdh verify``: the main job on a repository with ``openspec/``.

Steps, in order (:data:`STEP_NAMES`): spec lint, schemas + examples, freeze lock, codegen drift,
traceability, conformance suite (reference harness, in process), vocabulary coverage (the suite's
Runs reach every element of the fixture vocabulary), mutant self-test, gate status.
Kit-internal data (schemas, examples, freeze lock, codegen) is the kit's own contract set; the
spec side (lint, traceability, gate) is the repository's ``openspec/``. :func:`plan_sources`
refuses a repository whose own ``schemas/`` or ``features/`` differ from the kit's
(:class:`MixedSourcesError`) rather than mixing the two.
"""

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
