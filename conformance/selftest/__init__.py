"""The mutant self-test of the SRDH conformance kit: proof that the suite can fail.

:func:`run_selftest` runs the suite (Gherkin scenarios via :func:`conformance.suite.run_suite`
and the properties with few examples) against the reference Harness, which must pass, and against
every mutant of :mod:`reference_harness.mutants`, each of which must fail, naming the scenarios
that killed it. A surviving mutant fails the self-test. DESIGN section 9, "Mutants".

By default each mutant stops at its first kill and the work is spread over the cores
(``fast=False`` runs every probe on every mutant; the verdicts are the same).
"""

from conformance.selftest._cache import CACHE_DIR
from conformance.selftest._result import MutantVerdict, SelftestResult
from conformance.selftest._run import (
    REFERENCE,
    PendingSelftest,
    judge_iut,
    judge_iut_probes,
    run_selftest,
    start_selftest,
)

__all__ = [
    "CACHE_DIR",
    "REFERENCE",
    "MutantVerdict",
    "PendingSelftest",
    "SelftestResult",
    "judge_iut",
    "judge_iut_probes",
    "run_selftest",
    "start_selftest",
]
