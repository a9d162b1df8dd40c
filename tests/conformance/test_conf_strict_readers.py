"""Every reader of the kit is the strict one: the same hostile text is refused on every path.

Paths: IUT messages read by the stdio adapter, run messages read by the reference stdio IUT,
model output and tool arguments read by the OpenAI-compatible and scripted ports, schemas read
back by the reports, the contract loader. Each refuses duplicate member names, ``NaN``, lone
surrogates, overflowing and over-long numbers and nesting past the limit.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import pytest

from conformance.adapters import AdapterError, StdioAdapter
from conformance.reports import SchemaEnumError, property_enum
from contracts import MAX_DEPTH, StrictJSONError, parse_document
from reference_harness._scripted import _parsed
from reference_harness.openai._completion import parse_json_or_text
from reference_harness.stdio import _parse, _Refusal

if TYPE_CHECKING:
    from pathlib import Path

HOSTILE = {
    "duplicate-member": '{"type": "bye", "type": "hello"}',
    "nan": '{"type": "bye", "n": NaN}',
    "lone-surrogate": '{"type": "bye", "s": "\\ud800"}',
    "overflow": '{"type": "bye", "n": 1e400}',
    "long-number": '{"type": "bye", "n": ' + "7" * 1000 + "}",
    "deep": '{"type": "bye", "n": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}",
}
"""Hostile JSON texts, each otherwise a valid ``bye`` adapter message."""

hostile = pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))


@hostile
def test_the_contract_loader_refuses(text: str) -> None:
    """contracts.parse_document (every loader, fixtures included) refuses the text."""
    with pytest.raises(StrictJSONError):
        parse_document(text)


@hostile
def test_the_reference_stdio_iut_refuses_a_hostile_message(text: str) -> None:
    """The reference IUT answers MALFORMED_MESSAGE instead of taking the message."""
    with pytest.raises(_Refusal) as caught:
        _parse(3, text.encode())
    assert caught.value.reply["code"] == "MALFORMED_MESSAGE"
    assert caught.value.reply["message"].startswith("line 3: expected one I-JSON object")


@hostile
def test_model_output_stays_raw_text_for_the_harness_to_refuse(text: str) -> None:
    """Model content and tool arguments that are not I-JSON reach the Harness as raw text."""
    assert parse_json_or_text(text) == text
    assert _parsed(text) == text


@hostile
def test_a_schema_read_back_by_the_reports_is_refused(tmp_path: Path, text: str) -> None:
    """A schema file the reports read (enum labels) that is not I-JSON is a clear error."""
    (tmp_path / "x.schema.json").write_text(text, encoding="utf-8")
    with pytest.raises(SchemaEnumError, match="cannot read the schema"):
        property_enum(tmp_path, "x", "type")


def test_the_stdio_adapter_refuses_a_hello_with_duplicate_members() -> None:
    """An IUT whose hello names a member twice is refused, naming the rule (IUT messages)."""
    hello = {
        "type": "hello",
        "protocol_version": "2.0",
        "implementation": {"name": "dup", "version": "1"},
        "capabilities": [],
    }
    line = json.dumps(hello)[:-1] + ', "protocol_version": "9.9"}'
    script = f"import sys; sys.stdout.write({line!r} + '\\n'); sys.stdout.flush(); sys.stdin.read()"
    adapter = StdioAdapter([sys.executable, "-c", script], timeout_s=10)
    try:
        with pytest.raises(AdapterError, match="duplicate member name"):
            adapter.hello()
    finally:
        adapter.close()
