"""The mutant self-test of the SRDH conformance kit: proof that the suite can fail.

:func:`run_selftest` runs the suite (Gherkin scenarios via :func:`conformance.suite.run_suite`
and the properties with few examples) against the reference Harness, which must pass, and against
every mutant of :mod:`reference_harness.mutants`, each of which must fail, naming the scenarios
that killed it. A surviving mutant fails the self-test. DESIGN section 9, "Mutants".
"""

from conformance.selftest._result import MutantVerdict, SelftestResult
from conformance.selftest._run import REFERENCE, judge_iut, run_selftest

__all__ = ["REFERENCE", "MutantVerdict", "SelftestResult", "judge_iut", "run_selftest"]
