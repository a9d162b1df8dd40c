"""Given steps of the runtime vocabulary: timeouts, blocking calls, disconnects, sessions.

Registered by the plugin next to :mod:`conformance.bdd._given`. Model answers are written as
comma-separated words, e.g. ``the SemanticGuard answers INVALID, TIMEOUT``:

* ``DIAGNOSIS`` / ``KNOWLEDGE_QUERY`` (Router: that intent), ``SUPPORTED``, ``UNSUPPORTED`` (of
  analysis ``a1``) (SemanticGuard);
* ``INVALID`` (an answer that breaks its schema), ``UNAVAILABLE``, ``TIMEOUT`` (the call fails);
* ``LOWER_CASE`` (the Router's intent or the SemanticGuard's SUPPORTED written in lower case: not
  a value of the closed vocabulary, so an INVALID_SCHEMA attempt);
* ``WRONG_CASE`` (a well-formed JSON answer whose closed value is in another case: the Router's
  text ``{"intent": "diagnosis"}`` (a Router turn's ``intent`` is a closed vocabulary in the
  Scenario Fixture, so the answer is the model's raw text), the SemanticGuard's ``"Supported"``:
  an INVALID_SCHEMA attempt, as for any invalid answer);
* ``UNKNOWN_ANALYSIS`` (SemanticGuard: UNSUPPORTED naming ``a9``, an analysis the reviewed
  snapshot does not hold: an INVALID_SCHEMA attempt);
* ``BLOCK`` (the call blocks until the Run is cancelled or the call times out, then answers late:
  SUPPORTED, or the question's intent).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from pytest_bdd import given, parsers

from conformance.builders import (
    blocks_until_cancelled,
    error_turn,
    intent_turn,
    invalid_verdict_turn,
    raw_turn,
    supported_turn,
    unsupported_turn,
    verdict_turn,
)

if TYPE_CHECKING:
    from conformance.bdd._context import ScenarioContext

__all__ = ["model_answers"]


class UnknownAnswerError(ValueError):
    """A model answer word the step vocabulary does not know."""


def _wrong_case_turn(word: str, component: str, intent: str) -> dict[str, object]:
    """Return the ``LOWER_CASE`` or ``WRONG_CASE`` turn of ``component`` (module docstring)."""
    if word == "LOWER_CASE":
        if component == "router":
            return raw_turn(intent.lower())
        return verdict_turn({"verdict": "supported", "unsupported_analysis_ids": []})
    if component == "router":
        return raw_turn(json.dumps({"intent": intent.lower()}))
    return verdict_turn({"verdict": "Supported", "unsupported_analysis_ids": []})


def model_answers(words: str, component: str, intent: str = "DIAGNOSIS") -> list[dict[str, object]]:
    """Return the scripted turns of ``component`` (``router`` or ``review``) for ``words``.

    Raises:
        UnknownAnswerError: a word that is not in the module's vocabulary.
    """
    late = intent_turn(intent) if component == "router" else supported_turn()
    turns: list[dict[str, object]] = []
    for word in (w.strip() for w in words.split(",")):
        if word in {"UNAVAILABLE", "TIMEOUT"}:
            turns.append(error_turn(word))
        elif word == "BLOCK":
            turns.append(blocks_until_cancelled(late))
        elif word == "INVALID":
            turns.append(
                raw_turn("maybe a diagnosis?") if component == "router" else invalid_verdict_turn()
            )
        elif component == "review" and word == "UNKNOWN_ANALYSIS":
            turns.append(unsupported_turn(["a9"]))
        elif word in {"LOWER_CASE", "WRONG_CASE"}:
            turns.append(_wrong_case_turn(word, component, intent))
        elif component == "router" and word in {"DIAGNOSIS", "KNOWLEDGE_QUERY"}:
            turns.append(intent_turn(word))
        elif component == "review" and word == "SUPPORTED":
            turns.append(supported_turn())
        elif component == "review" and word == "UNSUPPORTED":
            turns.append(unsupported_turn(["a1"]))
        else:
            message = f"unknown {component} answer {word!r} in {words!r}"
            raise UnknownAnswerError(message)
    return turns


@given(parsers.re(r"model calls time out after (?P<ms>\d+) ms"))
def _model_timeout(srdh_context: ScenarioContext, ms: str) -> None:
    srdh_context.builder.set_limit("model_call_timeout_ms", int(ms) * srdh_context.timeout_scale)


@given(parsers.re(r"tool calls time out after (?P<ms>\d+) ms"))
def _tool_timeout(srdh_context: ScenarioContext, ms: str) -> None:
    srdh_context.builder.set_limit("tool_timeout_ms", int(ms) * srdh_context.timeout_scale)


@given(parsers.re(r"the Router answers (?P<words>[A-Z_, ]+)"))
def _router_answers(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.router_answers(model_answers(words, "router", builder.intent))


@given(parsers.re(r"the SemanticGuard answers (?P<words>[A-Z_, ]+)"))
def _review_answers(srdh_context: ScenarioContext, words: str) -> None:
    srdh_context.builder.review_answers(model_answers(words, "review"))


@given(parsers.re(r"the client disconnects on the (?P<event>[A-Z_]+) event number (?P<n>\d+)"))
def _disconnects_on(srdh_context: ScenarioContext, event: str, n: str) -> None:
    srdh_context.builder.disconnect_on(event, int(n))


@given(
    parsers.re(
        r"(?P<tool>\w+) blocks until its work is cancelled, then answers a matching line late"
    )
)
def _answers_after_cancel(srdh_context: ScenarioContext, tool: str) -> None:
    srdh_context.builder.tool_answers_after_cancel(tool, f"{tool} late line")


@given("these earlier Runs exist:")
def _session_runs(srdh_context: ScenarioContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        intent = None if cells["intent"] == "-" else cells["intent"]
        srdh_context.builder.add_session_run(
            cells["session"], int(cells["seq"]), intent, cells["state"], int(cells["created"])
        )
