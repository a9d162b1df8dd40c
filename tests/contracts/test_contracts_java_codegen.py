"""The Java code generation's annotation step (no JDK needed; the JDK round trip is in
``test_contracts_java.py``)."""

from __future__ import annotations

import contracts
from contracts import codegen_java


def test_java_required_nullable_properties_are_found():
    """The annotation step knows which properties must be written as null."""
    schemas = {
        p.name.removesuffix(".schema.json"): contracts.load_json_file(p)
        for p in sorted(contracts.schema_dir().glob("*.schema.json"))
    }
    found = codegen_java.required_nullable(schemas)
    assert {"evidence_status", "projection", "error"} <= found["ToolInvocation"]
    assert "ts_ms" not in found["RunStartedEvent"]  # optional, not nullable: omitted when absent
