"""A property naming a Then sentence the Then registry lacks is a named error, never a crash.

Found while speeding up the evolution tests (session 5): a scenario amendment whose property
named a Then sentence with no ``THEN_CHECKS`` entry made ``srdh verify`` end with
``internal error: KeyError: '<the sentence>'`` in the mutant self-test step, with no summary.
Now the unit reports the error (the verdict is "could not run"), and the message names the
registry to add the sentence to.
"""

from __future__ import annotations

import dataclasses

import pytest

from conformance.bdd import ThenRegistryError, then_check
from conformance.properties import PROPERTIES
from conformance.selftest import REFERENCE, _execute
from conformance.selftest._execute import run_unit
from conformance.selftest._plan import Judge, Probe, Unit

UNKNOWN = "the Harness does something no Then check knows"


def test_then_check_names_the_registry_for_an_unknown_sentence():
    with pytest.raises(ThenRegistryError) as caught:
        then_check(UNKNOWN)
    assert UNKNOWN in str(caught.value)
    assert "THEN_CHECKS in conformance/bdd/_then.py" in str(caught.value)


def test_a_property_with_an_unknown_then_sentence_is_a_unit_error(monkeypatch):
    name = next(n for n, p in PROPERTIES.items() if p.kind == "run")
    renamed = {**PROPERTIES, name: dataclasses.replace(PROPERTIES[name], then=UNKNOWN)}
    monkeypatch.setattr(_execute, "PROPERTIES", renamed)
    unit = Unit(
        Judge("reference", REFERENCE, "", ""), (Probe("property", name),), stop_at_kill=False
    )
    result = run_unit(0, unit, None, 1)
    assert "ThenRegistryError" in result.error
    assert UNKNOWN in result.error
