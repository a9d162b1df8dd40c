"""Parts of the mutants of red team 8's kinds (docs/decisions/red-team-8.md).

A projection whose ``total_matched`` is the backend's count even below the rows it kept, a new
Run named ``run-<seq>`` whatever the earlier Runs are named, and a public error released past
the release gate (its client already gone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_harness._harness import Harness
from reference_harness._run_context import RunFailedError

if TYPE_CHECKING:
    from collections.abc import Callable

    from contracts import DiagnosisRun
    from reference_harness._outcome import Outcome
    from reference_harness._run_context import RunContext

__all__ = ["PublicErrorPastGateHarness", "SeqNamedRunsHarness", "backend_count_trusted"]


def backend_count_trusted(
    original: Callable[..., dict[str, Any]],
) -> Callable[..., dict[str, Any]]:
    """A ``Patch`` wrap of ``_tool_execution.project``: the backend's count copied as it is.

    ``total_matched`` is the backend's reported count whenever it reports one, even below the
    rows the projection keeps (the reference takes the number of rows then): the fault of a
    Harness trusting the backend, breaking ``total_matched >= len(items)`` (R3, bounded
    projection; red team 8, S2 of rt8a).
    """

    def project(*args: Any, **kwargs: Any) -> dict[str, Any]:  # noqa: ANN401 - project's own
        projection = original(*args, **kwargs)
        result = kwargs["result"] if "result" in kwargs else args[2]
        reported = getattr(result, "total_matched", None)
        if reported is not None:
            projection["total_matched"] = reported
        return projection

    return project


class SeqNamedRunsHarness(Harness):
    """A Harness naming each new Run ``run-<seq>`` without looking at the stored ids.

    When an earlier Run of the session already has that id, creating the new Run's row fails
    (the store refuses a second row with one ``run_id``) and the Run never runs: the fault of a
    Harness deriving Run ids from the sequence (R7, diagnosis_run is the durable record, one row
    per Run; red team 8, S7 of rt8b).
    """

    async def run(self, session_id: str, user_message: str, **kwargs: Any) -> DiagnosisRun:  # noqa: ANN401 - Harness.run's own
        """Run as the reference does, the Run named ``run-`` + the session's next seq."""
        store = self._store
        following = 1 + max((run.seq for run in store.list_session(session_id)), default=0)
        self._run_ids = lambda: f"run-{following}"
        return await super().run(session_id, user_message, **kwargs)


class PublicErrorPastGateHarness(Harness):
    """A Harness whose public errors pass the release gate at once.

    "Errors always reach the client": a client that disconnected after the failing call, before
    the release, is never noticed, and the Run is released FAILED instead of ending CANCELLED
    (R8; red team 8, S8 of rt8b). A disconnect noticed earlier (during a call) still cancels
    the Run.
    """

    async def _work(
        self, ctx: RunContext, session_id: str, user_message: str, run_seq: int
    ) -> Outcome:
        try:
            return await super()._work(ctx, session_id, user_message, run_seq)
        except RunFailedError:
            ctx.pass_release_gate()
            raise
