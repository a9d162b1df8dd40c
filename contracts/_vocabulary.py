"""Vocabularies of the contracts read from their schemas, without building the Pydantic models."""

from __future__ import annotations

import functools

from contracts._paths import schema_path
from contracts._strict_json import load_json_file

__all__ = ["capability_vocabulary"]


@functools.cache
def capability_vocabulary() -> tuple[str, ...]:
    """The adapter protocol's Capability vocabulary, in the contract's order.

    Read from ``adapter-message.schema.json`` (``$defs/Capability``), the source of the generated
    ``contracts.Capability`` enum: importing that enum builds the adapter message models, and with
    them the Run Observation, Scenario Fixture and trace event models, which neither a Harness
    serving Runs nor a ``srdh run`` needs (their processes' start-up; docs/decisions/test-speed.md,
    Session 10). Read once per process.

    Raises:
        contracts.StrictJSONError, OSError: the schema file is missing or not strict JSON.
    """
    schema = load_json_file(schema_path("adapter-message"))
    return tuple(schema["$defs"]["Capability"]["enum"])
