"""Given steps: build the Scenario Fixture in plain words (registered by the plugin)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pytest_bdd import given, parsers

from conformance.bdd._shapes import StepVocabularyError, document_for, presented_id, quoted
from conformance.builders import (
    call_arguments,
    draft_and_tool_calls_turn,
    tool_call,
    tool_calls_turn,
    verdict_turn,
)
from conformance.keywordbreaks import ARGUMENTS, LONE_ITEM, base_documents, break_at
from contracts import loads_strict

if TYPE_CHECKING:
    from conformance.bdd._context import ScenarioContext

__all__: list[str] = []

_LONE = re.escape(LONE_ITEM)


@given("the stage-zero contracts")
def _stage_zero_contracts(srdh_context: ScenarioContext) -> None:
    from contracts import load_component_registry, load_phase_plan  # noqa: PLC0415 - heavy import

    srdh_context.contracts = {
        "component-registry": load_component_registry().model_dump(mode="json"),
        "phase-plan": load_phase_plan().model_dump(mode="json"),
    }


@given(parsers.re(r'a user asks (?P<message>".*")'))
def _asks(srdh_context: ScenarioContext, message: str) -> None:
    srdh_context.builder.ask(loads_strict(message))


@given(parsers.re(r"a user asks a question of (?P<length>\d+) characters"))
def _asks_long(srdh_context: ScenarioContext, length: str) -> None:
    srdh_context.builder.ask("Why is checkout failing? ".ljust(int(length), "x"))


@given(parsers.re(r"the agent has a budget of (?P<steps>\d+) tool steps?"))
def _step_budget(srdh_context: ScenarioContext, steps: str) -> None:
    srdh_context.builder.set_limits(max_steps=int(steps))


@given(parsers.re(r'a user asks the knowledge question (?P<message>".*")'))
def _asks_knowledge(srdh_context: ScenarioContext, message: str) -> None:
    srdh_context.builder.ask(loads_strict(message), "KNOWLEDGE_QUERY")


@given("the session has these earlier Runs:")
def _earlier_runs(srdh_context: ScenarioContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        srdh_context.builder.add_prior_run(int(cells["seq"]), cells["intent"], cells["state"])


@given(
    parsers.re(
        r"the session has a DIAGNOSIS \+ SUCCESS Run followed by (?P<count>\d+) Runs that ended "
        r"with (?P<state>FALLBACK|FAILED|CANCELLED)"
    )
)
def _many_newer_runs(srdh_context: ScenarioContext, count: str, state: str) -> None:
    builder = srdh_context.builder
    builder.add_prior_run(1, "DIAGNOSIS", "SUCCESS")
    for seq in range(2, int(count) + 2):
        builder.add_prior_run(seq, "DIAGNOSIS", state)


@given(parsers.re(r'another session has a successful earlier Run asking (?P<message>".*")'))
def _other_session_run(srdh_context: ScenarioContext, message: str) -> None:
    srdh_context.builder.add_other_session_run(1, loads_strict(message))


@given(parsers.re(r"(?P<tool>\w+) returns more rows than the bounded projection keeps"))
def _rows_beyond_projection(srdh_context: ScenarioContext, tool: str) -> None:
    srdh_context.builder.returns_rows_beyond_projection(tool)


@given(
    parsers.re(
        r"in step (?P<step>\d+) the agent calls (?P<tool>\w+) "
        r"with the Tool Call ID (?P<presented>.+)"
    )
)
def _calls(srdh_context: ScenarioContext, step: str, tool: str, presented: str) -> None:
    srdh_context.builder.add_call(int(step), tool, presented_id(presented))


@given(
    parsers.re(
        r"in step (?P<step>\d+) the agent calls (?P<tool>\w+) "
        r"with the Tool Call IDs (?P<presented>.+)"
    )
)
def _calls_many(srdh_context: ScenarioContext, step: str, tool: str, presented: str) -> None:
    # one call per id, in order: ``"call_1" through "call_30"`` is thirty calls (quoted)
    for call_id in quoted(presented):
        srdh_context.builder.add_call(int(step), tool, call_id)


@given(
    parsers.re(
        r"in step (?P<step>\d+) the agent calls (?P<tool>\w+) twice, "
        r"both with the Tool Call ID (?P<presented>.+)"
    )
)
def _calls_twice(srdh_context: ScenarioContext, step: str, tool: str, presented: str) -> None:
    for _ in range(2):
        srdh_context.builder.add_call(int(step), tool, presented_id(presented))


@given("the Router first answers an invalid intent, then routes the question")
def _router_invalid_once(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.script_router("invalid_then_routes")


@given("the Router is unavailable")
def _router_unavailable(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.script_router("unavailable")


@given("the agent's first model call is unavailable")
def _agent_unavailable(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.agent_unavailable()


@given(parsers.re(r"each (?P<tool>\w+) execution returns a different matching line"))
def _returns_lines(srdh_context: ScenarioContext, tool: str) -> None:
    srdh_context.builder.returns_lines(tool)


@given(parsers.re(r"(?P<tool>\w+) finds nothing"))
def _finds_nothing(srdh_context: ScenarioContext, tool: str) -> None:
    srdh_context.builder.finds_nothing(tool)


@given(parsers.re(r'(?P<tool>\w+) answers with the in-band error "(?P<code>[^"]+)"'))
def _in_band_error(srdh_context: ScenarioContext, tool: str, code: str) -> None:
    srdh_context.builder.answers_in_band_error(tool, code)


@given(parsers.re(r"lookup_documents returns the documents (?P<documents>.+)"))
def _returns_documents(srdh_context: ScenarioContext, documents: str) -> None:
    srdh_context.builder.returns_documents(quoted(documents))


@given(
    parsers.re(
        r'the first lookup_documents execution raises "(?P<message>[^"]*)" and later ones return '
        r"the documents (?P<documents>.+)"
    )
)
def _lookup_fails_first(srdh_context: ScenarioContext, message: str, documents: str) -> None:
    srdh_context.builder.lookup_fails_first(message, quoted(documents))


@given(parsers.re(r"the agent then submits (?P<words>.+)"))
def _submits(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.submit(document_for(builder, words))


@given(parsers.re(r"the agent submits (?P<words>.+) every time"))
def _submits_every_time(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.submit(document_for(builder, words), every_time=True)


@given(
    parsers.re(
        r"the structural repair blocks until the Run is cancelled, then answers late with "
        r"(?P<words>.+)"
    )
)
def _repair_blocks(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.repair_blocks(document_for(builder, words))


@given(parsers.re(r"the structural repair submits (?P<words>(?!blocks ).+)"))
def _repair_submits(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.submit_repair(document_for(builder, words))


@given(
    parsers.re(
        r"the agent's next model call blocks until the Run is cancelled, "
        r"then answers late with (?P<words>.+)"
    )
)
def _blocks(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.wrap_submission("block", document_for(builder, words))


@given(
    parsers.re(
        r"the agent's next model call swallows the cancellation and answers with (?P<words>.+)"
    )
)
def _swallows(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.wrap_submission("ignore", document_for(builder, words))


@given("the client disconnects when that model call starts")
def _disconnects(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.disconnect_during_submission()


@given(parsers.re(r"the SemanticGuard supports the (?:draft|answer)"))
def _supports(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.review("supports")


@given("the SemanticGuard first returns an invalid verdict, then supports the draft")
def _invalid_then_supports(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.review("invalid_then_supports")


_ONE_RULE_BROKEN = {
    "a verdict with a member the schema does not define": "extra_member_then_supports",
    "an UNSUPPORTED verdict naming no analysis": "unsupported_naming_none_then_supports",
    'a SUPPORTED verdict naming the analysis "a1"': "supported_naming_then_supports",
}


@given(
    parsers.re(r"the SemanticGuard's first answer is (?P<answer>.+), then it supports the draft")
)
def _one_rule_broken_then_supports(srdh_context: ScenarioContext, answer: str) -> None:
    script = _ONE_RULE_BROKEN.get(answer)
    if script is None:
        message = (
            f"unknown SemanticGuard answer {answer!r}; expected one of {sorted(_ONE_RULE_BROKEN)}"
        )
        raise StepVocabularyError(message)
    srdh_context.builder.review(script)


@given(
    parsers.re(
        r"the SemanticGuard's first answer breaks (?P<first>\w+) at (?P<at_first>\".*\")"
        rf"(?P<lone_first>{_LONE})?, "
        r"its second breaks (?P<second>\w+) at (?P<at_second>\".*\")"
        rf"(?P<lone_second>{_LONE})?"
    )
)
def _verdicts_breaking(  # noqa: PLR0913, PLR0917 - the step's two cells, three groups each
    srdh_context: ScenarioContext,
    first: str,
    at_first: str,
    lone_first: str | None,
    second: str,
    at_second: str,
    lone_second: str | None,
) -> None:
    """Two verdicts, each breaking one keyword of semantic-verdict.schema.json (generated rows).

    A cell ending in :data:`~conformance.keywordbreaks.LONE_ITEM` writes the array as its item.
    """
    base = base_documents("semantic-verdict", {})
    cells = ((first, at_first, lone_first), (second, at_second, lone_second))
    try:
        turns = [
            verdict_turn(
                break_at("semantic-verdict", base, keyword, quoted(at)[0], lone_item=bool(lone))
            )
            for keyword, at, lone in cells
        ]
    except KeyError as error:
        raise StepVocabularyError(str(error)) from error
    srdh_context.builder.review_answers(turns)


@given("the SemanticGuard returns an invalid verdict twice")
def _invalid_twice(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.review("invalid_twice")


@given("the SemanticGuard is unavailable")
def _unavailable(srdh_context: ScenarioContext) -> None:
    srdh_context.builder.review("unavailable")


@given(
    parsers.re(
        r'the SemanticGuard finds the (?:analysis|item) "(?P<analysis_id>[^"]+)" unsupported'
    )
)
def _unsupported(srdh_context: ScenarioContext, analysis_id: str) -> None:
    srdh_context.builder.review("unsupported", analysis_id)


# -- evidence vocabulary: earlier ids, narrower scopes, raising and oversize backends, repair ------


@given(
    parsers.re(
        r"the session has an earlier SUCCESS Run whose draft cited the Tool Call ID "
        r'(?P<ids>".+")'
    )
)
def _earlier_citing(srdh_context: ScenarioContext, ids: str) -> None:
    srdh_context.builder.add_prior_citing_run(quoted(ids))


@given(
    parsers.re(
        r'"(?P<call_id>[^"]+)" looks at the same query as "(?P<like>[^"]+)" '
        r"over its last (?P<minutes>\d+) minutes"
    )
)
def _narrower(srdh_context: ScenarioContext, call_id: str, like: str, minutes: str) -> None:
    srdh_context.builder.narrow(call_id, like, int(minutes))


@given(parsers.re(r'"(?P<call_id>[^"]+)" repeats the arguments of "(?P<like>[^"]+)"'))
def _same_arguments(srdh_context: ScenarioContext, call_id: str, like: str) -> None:
    srdh_context.builder.same_arguments(call_id, like)


@given(parsers.re(r'the time range of "(?P<call_id>[^"]+)" ends before it starts'))
def _reversed_range(srdh_context: ScenarioContext, call_id: str) -> None:
    srdh_context.builder.reverse_time_range(call_id)


_ARGUMENT_BOUNDS = {
    "a 256-character target": "target",
    "a 1024-character query": "query",
    "a target of 256 astral characters": "astral-target",
    "a query of 1024 astral characters": "astral-query",
    "an empty query": "empty-query",
    "a time range of one instant": "instant",
}


@given(parsers.re(r'the arguments of "(?P<call_id>[^"]+)" have (?P<bound>.+)'))
def _arguments_at_bound(srdh_context: ScenarioContext, call_id: str, bound: str) -> None:
    name = _ARGUMENT_BOUNDS.get(bound)
    if name is None:
        message = f"unknown argument bound {bound!r}; expected one of {sorted(_ARGUMENT_BOUNDS)}"
        raise StepVocabularyError(message)
    srdh_context.builder.arguments_at_bound(call_id, name)


@given(parsers.re(r'the arguments of "(?P<call_id>[^"]+)" break (?P<keyword>\w+) at (?P<at>".*")'))
def _arguments_breaking(srdh_context: ScenarioContext, call_id: str, keyword: str, at: str) -> None:
    """The call's arguments broken at one keyword of the query-scope schema (generated rows)."""
    pointer = quoted(at)[0]
    try:
        srdh_context.builder.replace_arguments(
            call_id, lambda arguments: break_at(ARGUMENTS, [arguments], keyword, pointer)
        )
    except KeyError as error:
        raise StepVocabularyError(str(error)) from error


@given(parsers.re(r'the arguments of "(?P<call_id>[^"]+)" carry an extra member'))
def _extra_argument_member(srdh_context: ScenarioContext, call_id: str) -> None:
    srdh_context.builder.extra_argument_member(call_id)


@given(
    parsers.re(
        r'the first call presenting "(?P<call_id>[^"]+)" ends (?P<how>TOOL_FAILED|TOOL_TIMEOUT|'
        r"BACKEND_ERROR|INVALID_ARGUMENTS|NO_EVIDENCE), later executions return a matching line"
    )
)
def _first_call_ends(srdh_context: ScenarioContext, call_id: str, how: str) -> None:
    srdh_context.builder.first_call_ends(call_id, how, 300 * srdh_context.timeout_scale)


@given(parsers.re(r'(?P<tool>\w+) raises "(?P<message>[^"]*)"'))
def _raises(srdh_context: ScenarioContext, tool: str, message: str) -> None:
    srdh_context.builder.raises(tool, message)


@given(
    parsers.re(
        r"the projection limits are (?P<items>\d+) items of at most (?P<chars>\d+) characters"
    )
)
def _projection_limits(srdh_context: ScenarioContext, items: str, chars: str) -> None:
    srdh_context.builder.set_limits(max_items=int(items), max_item_chars=int(chars))


@given(
    parsers.re(
        r"(?P<tool>\w+) returns (?P<count>\d+) rows of (?P<length>\d+)(?P<astral> astral)? "
        r"characters(?: out of (?P<matches>\d+) matches)?"
    )
)
def _long_rows(  # noqa: PLR0913, PLR0917 - pytest-bdd passes the step's parts by name
    srdh_context: ScenarioContext,
    tool: str,
    count: str,
    length: str,
    astral: str | None,
    matches: str | None,
) -> None:
    srdh_context.builder.returns_long_rows(
        tool,
        int(count),
        int(length),
        astral=bool(astral),
        matches=int(matches) if matches else None,
    )


@given(parsers.re(r'"(?P<call_id>[^"]+)" asks for a time range that ends before it starts'))
def _asks_reversed_range(srdh_context: ScenarioContext, call_id: str) -> None:
    srdh_context.builder.reverse_time_range(call_id)


@given(
    parsers.re(
        r"the structural repair answers with (?:(?P<words>.+) together with )?a call of "
        r'(?P<tool>\w+) with the Tool Call ID "(?P<call_id>[^"]+)"'
    )
)
def _repair_calls(
    srdh_context: ScenarioContext, tool: str, call_id: str, words: str | None
) -> None:
    builder = srdh_context.builder
    call = tool_call(call_id, tool, call_arguments(query=f"level:error repair {call_id}"))
    turn = (
        draft_and_tool_calls_turn(document_for(builder, words), [call])
        if words
        else tool_calls_turn([call])
    )
    builder.repair_with_turn(turn)


@given(parsers.re(r"if the agent is asked again, it submits (?P<words>.+)"))
def _if_asked_again(srdh_context: ScenarioContext, words: str) -> None:
    builder = srdh_context.builder
    builder.if_asked_again(document_for(builder, words))
