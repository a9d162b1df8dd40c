"""The ReAct loop: step the Diagnosis Agent, classify and dispatch the tool calls it proposes.

Each ``tool_calls`` answer is one *step* (Requirement 2, contract sheet ``scenario-fixture``). For
each proposed call, in order: the Tool Call ID is classified against the ids accepted earlier in
this Run (earlier steps and earlier in the same step); a rejected call (``MISSING_ID``,
``INVALID_ID``, ``DUPLICATE_ID``) is recorded as ``TOOL_CALL_REJECTED``, never executed, never
touches an existing invocation, and the agent is told with a fixed notice; an accepted call gets
``TOOL_CALL_ACCEPTED``, a ``PROJECTING`` invocation, and is executed before the next call.
Invalid arguments end the invocation ``ERROR``/``ERROR`` ``INVALID_ARGUMENTS``; the invocation
records the arguments as presented (``{}`` only for a value the contract's object cannot hold:
:func:`reference_harness._tools.recorded_arguments`).

A call whose tool name is not a Tool name cannot be an invocation (the contract's ``tool_name`` is
the closed Tool name vocabulary): it is not executed and the agent gets a fixed notice.

The step budget is ``Limits.max_steps``: an agent that proposes tools again after that many steps
gets no further tools; the loop ends with :data:`BUDGET_EXHAUSTED`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, final

from reference_harness._conversation import (
    answer_message,
    rejection_message,
    repair_message,
    tool_step_messages,
)
from reference_harness._ids import classify_tool_call_id, presented_id_text
from reference_harness._model_calls import call_with_retry
from reference_harness._run_context import RunFailedError
from reference_harness._tool_execution import execute_tool
from reference_harness._tools import TOOL_NAMES, TOOL_SPECS, recorded_arguments, valid_arguments
from reference_harness.ports import (
    AgentRequest,
    FinalAnswer,
    ProposedToolCall,
    ToolCallsAnswer,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from reference_harness._model_calls import CallResult
    from reference_harness._retry import RetryPolicy
    from reference_harness._run_context import RunContext
    from reference_harness.ports import AgentAnswer, AgentPort, AgentPurpose, Intent, ToolBackend

__all__ = ["BUDGET_EXHAUSTED", "AgentLoop", "Submission"]

_NAME_MAX: Final = 256


@final
class _BudgetExhausted:
    def __repr__(self) -> str:
        return "BUDGET_EXHAUSTED"


BUDGET_EXHAUSTED: Final = _BudgetExhausted()
"""The agent asked for tools after ``max_steps`` steps."""


@dataclass(frozen=True, slots=True)
class Submission:
    """What the agent submitted as its final answer: parsed JSON, or raw text if not JSON.

    ``tool_calls`` is true when a structural repair answer proposed tools instead (a failed repair).
    """

    content: object
    tool_calls: bool = False


def _check_answer(answer: object) -> AgentAnswer | None:
    if isinstance(answer, FinalAnswer):
        return answer
    if isinstance(answer, ToolCallsAnswer) and all(
        isinstance(call, ProposedToolCall) for call in answer.calls
    ):
        return answer
    return None


class AgentLoop:
    """The Diagnosis Agent conversation of one Run.

    Args:
        ctx: the Run.
        agent: the agent port.
        tools: the tool backend.
        policy: the retry policy (the agent gets one attempt by default).
        intent: the routed intent.
        messages: the opening messages (system prompt, previous turn, user message).
    """

    def __init__(  # noqa: PLR0913 - the loop needs exactly these collaborators
        self,
        ctx: RunContext,
        *,
        agent: AgentPort,
        tools: ToolBackend,
        policy: RetryPolicy,
        intent: Intent,
        messages: list[dict[str, Any]],
    ) -> None:
        """Prepare the loop; nothing is called yet."""
        self._ctx = ctx
        self._agent = agent
        self._tools = tools
        self._policy = policy
        self._intent: Intent = intent
        self._messages = messages

    async def run(self) -> Submission | _BudgetExhausted:
        """Step the agent until it submits a final answer or the step budget is spent.

        Raises:
            RunFailedError: ``AGENT_UNAVAILABLE`` (the call did not give a usable answer).
            RunCancelledError: the Run was cancelled.
        """
        step = 0
        while True:
            answer = await self._ask("AGENT_STEP")
            if isinstance(answer, FinalAnswer):
                self._messages.append(answer_message(answer.content))
                return Submission(answer.content)
            if step >= self._ctx.limits.max_steps:
                return BUDGET_EXHAUSTED
            step += 1
            await self._step(step, answer.calls)

    async def repair(self, request: Mapping[str, Any]) -> Submission:
        """Make the single no-Tool structural repair call with ``request`` (codes and pointers).

        Raises:
            RunFailedError: ``AGENT_UNAVAILABLE``.
            RunCancelledError: the Run was cancelled.
        """
        self._messages.append(repair_message(request))
        answer = await self._ask("STRUCTURAL_REPAIR")
        if isinstance(answer, ToolCallsAnswer):
            return Submission(None, tool_calls=True)
        self._messages.append(answer_message(answer.content))
        return Submission(answer.content)

    async def _ask(self, purpose: AgentPurpose) -> AgentAnswer:
        request = AgentRequest(
            purpose=purpose,
            messages=tuple(self._messages),
            tools=TOOL_SPECS if purpose == "AGENT_STEP" else (),
            intent=self._intent,
        )
        result: CallResult[AgentAnswer] = await _call_agent(
            self._ctx, self._policy, self._agent, request
        )
        if result.value is None:
            msg = "AGENT_UNAVAILABLE"
            raise RunFailedError(msg)
        return result.value

    async def _step(self, step: int, calls: tuple[ProposedToolCall, ...]) -> None:
        ctx = self._ctx
        done: list[dict[str, Any]] = []
        notices: list[dict[str, Any]] = []
        for position, call in enumerate(calls):
            # a disconnect noticed on the last event runs on the loop: let it close the gate
            # before the next call is accepted (a call refused for its arguments never waits)
            await asyncio.sleep(0)
            ctx.check_open()
            reason = classify_tool_call_id(call.id, ctx.ledger.accepted_ids)
            if reason is not None:
                ctx.trace.emit(
                    "TOOL_CALL_REJECTED",
                    {
                        "reason": reason,
                        "presented_id": presented_id_text(call.id),
                        "tool_name": call.name[:_NAME_MAX] if isinstance(call.name, str) else None,
                        "step": step,
                        "position": position,
                    },
                )
                notices.append(rejection_message(step, position, reason))
                continue
            if call.name not in TOOL_NAMES:
                notices.append(rejection_message(step, position, "UNKNOWN_TOOL"))
                continue
            tool_call_id = str(call.id)
            tool_name = str(call.name)
            ctx.trace.emit(
                "TOOL_CALL_ACCEPTED",
                {
                    "tool_call_id": tool_call_id,
                    "tool_name": tool_name,
                    "step": step,
                    "sequence": len(ctx.ledger.accepted_ids) + 1,
                },
            )
            arguments = call.arguments if valid_arguments(call.arguments) else None
            record = ctx.ledger.accept(
                tool_call_id, tool_name, recorded_arguments(call.arguments), step
            )
            if arguments is None:
                done.append(ctx.ledger.fail(tool_call_id, "INVALID_ARGUMENTS"))
                continue
            done.append(await execute_tool(ctx, self._tools, record))
        self._messages.extend(tool_step_messages(done))
        self._messages.extend(notices)


async def _call_agent(
    ctx: RunContext, policy: RetryPolicy, agent: AgentPort, request: AgentRequest
) -> CallResult[AgentAnswer]:
    return await call_with_retry(
        ctx,
        policy,
        component="DIAGNOSIS_AGENT",
        purpose=request.purpose,
        invoke=lambda interrupt: agent.step(request, interrupt),
        check=_check_answer,
    )
