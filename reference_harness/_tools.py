"""The four tools the Diagnosis Agent may call, and validation of their arguments.

Every tool takes the same arguments object, the contract's ``QueryScope`` minus ``tool``:
``{target: string 1..256, time_range: {start_ms: int 0..2^53-1, end_ms: int 0..2^53-1}, query:
string 0..1024}`` with ``end_ms >= start_ms``. The JSON Schema below is both what the model is
offered (``ToolSpec.parameters``) and what the Harness validates against (jsonschema-rs, draft
2020-12: the kit's deciding validator, already loaded with :mod:`contracts`; python-jsonschema,
which explains violations, is not needed here and stays out of a Harness's start-up).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, TypeGuard

import jsonschema_rs

from contracts import MAX_SAFE_INTEGER, json_value_problem
from reference_harness.ports import ToolSpec

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["TOOL_NAMES", "TOOL_SPECS", "ToolName", "recorded_arguments", "valid_arguments"]

ToolName: TypeAlias = Literal["query_metrics", "search_logs", "list_alerts", "lookup_documents"]
"""Contract sheet: Tool name."""

LOOKUP_TOOL: Final = "lookup_documents"

_ARGUMENTS_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "target": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "Service, host or document collection to query.",
        },
        "time_range": {
            "type": "object",
            "properties": {
                "start_ms": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": MAX_SAFE_INTEGER,
                    "description": "Start, ms UTC.",
                },
                "end_ms": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": MAX_SAFE_INTEGER,
                    "description": "End, ms UTC.",
                },
            },
            "required": ["start_ms", "end_ms"],
            "additionalProperties": False,
            "description": "Inclusive time window, milliseconds since the Unix epoch (UTC).",
        },
        "query": {"type": "string", "maxLength": 1024, "description": "Query text."},
    },
    "required": ["target", "time_range", "query"],
    "additionalProperties": False,
}

_VALIDATOR: Final = jsonschema_rs.Draft202012Validator(_ARGUMENTS_SCHEMA)

_DESCRIPTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "query_metrics": "Query time-series metrics of a target over a time range.",
        "search_logs": "Search the logs of a target over a time range.",
        "list_alerts": "List the alerts raised for a target over a time range.",
        "lookup_documents": "Look up runbooks and knowledge documents; returns document ids.",
    }
)

TOOL_NAMES: Final[tuple[ToolName, ...]] = (
    "query_metrics",
    "search_logs",
    "list_alerts",
    "lookup_documents",
)
"""The Tool names, in the order they are offered."""

TOOL_SPECS: Final[tuple[ToolSpec, ...]] = tuple(
    ToolSpec(name=name, description=_DESCRIPTIONS[name], parameters=_ARGUMENTS_SCHEMA)
    for name in TOOL_NAMES
)
"""What an ``AGENT_STEP`` request offers the Diagnosis Agent."""


def valid_arguments(arguments: object) -> TypeGuard[dict[str, Any]]:
    """Return whether ``arguments`` is a valid tool arguments object (schema and end >= start).

    Valid arguments are also a value the Harness can canonicalize (RFC 8785, for the Verified
    Snapshot digest): :func:`contracts.json_value_problem` finds nothing (integers within
    +/-``MAX_SAFE_INTEGER``, the one limit the schema above, the EvidenceGuard and the digest
    share; no lone surrogates; nesting within ``contracts.MAX_DEPTH``). Anything else is refused
    as invalid arguments before execution, never a Run that fails later.
    """
    if not isinstance(arguments, dict) or json_value_problem(arguments) is not None:
        return False
    if not _VALIDATOR.is_valid(arguments):
        return False
    time_range = arguments["time_range"]
    return bool(time_range["end_ms"] >= time_range["start_ms"])


def recorded_arguments(arguments: object) -> dict[str, Any]:
    """Return the ``arguments`` a ToolInvocation records for a presented call, valid or not.

    tool-invocation.schema.json: "kept as presented so that INVALID_ARGUMENTS can be recorded":
    a JSON object :func:`contracts.json_value_problem` finds nothing in is kept member for member
    (extra members included); anything else (not an object, an integer beyond
    +/-``MAX_SAFE_INTEGER``, a lone surrogate, deeper than ``contracts.MAX_DEPTH``) cannot be
    stored as the contract's object and is recorded as ``{}``.
    """
    if isinstance(arguments, dict) and json_value_problem(arguments) is None:
        return arguments
    return {}
