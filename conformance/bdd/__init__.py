"""Gherkin binding of the SRDH conformance suite (pytest-bdd).

:mod:`conformance.bdd.plugin` is the pytest plugin (options, ``iut`` fixture, tag mapping, step
definitions). The step vocabulary lives in private modules; :class:`ScenarioContext` is what the
steps share, :data:`THEN_CHECKS` maps each Then sentence to its check.
"""

from conformance.bdd._context import ScenarioContext, scenario_identity, scenario_name
from conformance.bdd._shapes import StepVocabularyError, document_for, presented_id, quoted
from conformance.bdd._then import THEN_CHECKS, ThenRegistryError, then_check
from conformance.bdd._when import SPEC_RUN_SENTENCES

__all__ = [
    "SPEC_RUN_SENTENCES",
    "THEN_CHECKS",
    "ScenarioContext",
    "StepVocabularyError",
    "ThenRegistryError",
    "document_for",
    "presented_id",
    "quoted",
    "scenario_identity",
    "scenario_name",
    "then_check",
]
