"""Units of the supervision: blame of late violations, signal handlers, the message parser."""

from __future__ import annotations

import signal
import sys
import time

import pytest

from conformance.adapters import MAX_MESSAGE_DEPTH, ProtocolViolation, supervise_signals
from conformance.adapters._process import ChildProcess, ReadTimeout
from conformance.adapters._stdio import parse_message
from conformance.cli._run import fold_violations
from conformance.reports import Report, RequirementResult, ScenarioResult, Status, Versions


def _report() -> Report:
    scenarios = tuple(
        ScenarioResult(sid, sid, Status.PASSED, 0.1, "", 1)
        for sid in ("dup-id", "dup-id-twice", "other")
    )
    return Report(
        title="t",
        kit=Versions("k", "0"),
        iut=Versions("i", "0"),
        requirements=(RequirementResult("r", "R", "MUST", scenarios),),
    )


def _statuses(report: Report) -> dict[str, Status]:
    return {s.scenario_id: s.status for r in report.requirements for s in r.scenarios}


def test_a_violation_fails_the_scenario_its_fixture_names():
    """The fixture's scenario_id picks the scenario; the others keep their result."""
    folded = fold_violations(_report(), [ProtocolViolation("req-3", "x", "other", "extra")])
    assert _statuses(folded) == {
        "dup-id": Status.PASSED,
        "dup-id-twice": Status.PASSED,
        "other": Status.ERROR,
    }
    (message,) = [s.message for s in folded.requirements[0].scenarios if s.scenario_id == "other"]
    assert message == "protocol error (req-3, fixture x): extra"
    assert not folded.passed


def test_without_a_scenario_id_the_longest_prefix_of_the_fixture_id_is_blamed():
    """``dup-id-twice-2`` belongs to ``dup-id-twice``, not to ``dup-id``."""
    folded = fold_violations(_report(), [ProtocolViolation("req-1", "dup-id-twice-2", None, "x")])
    assert _statuses(folded)["dup-id-twice"] is Status.ERROR
    assert _statuses(folded)["dup-id"] is Status.PASSED


def test_a_violation_no_scenario_claims_fails_them_all():
    """An unattributable violation cannot leave a passing run."""
    folded = fold_violations(_report(), [ProtocolViolation("req-1", "zzz", None, "x")])
    assert set(_statuses(folded).values()) == {Status.ERROR}


def test_no_violation_leaves_the_report_unchanged():
    """Nothing to fold: the very same report."""
    report = _report()
    assert fold_violations(report, []) is report


def test_supervise_signals_installs_and_restores_handlers():
    """Inside the block SIGTERM is handled by the kit; outside, the previous handler is back."""
    before = signal.getsignal(signal.SIGTERM)
    with supervise_signals():
        assert signal.getsignal(signal.SIGTERM) not in {before, signal.SIG_DFL}
    assert signal.getsignal(signal.SIGTERM) == before


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"[" * (MAX_MESSAGE_DEPTH + 1) + b"]" * (MAX_MESSAGE_DEPTH + 1), "nested deeper"),
        (b"[" * 100_000 + b"]" * 100_000, "nested deeper"),
        (b'{"a": "\\udc00"}', "unpaired UTF-16 surrogate"),
        (b'{"\\ud800": 1}', "unpaired UTF-16 surrogate"),
        (b'"\xff"', "UTF-8"),
        (b"{", "Expecting"),
    ],
    ids=["depth-65", "depth-100000", "surrogate-value", "surrogate-key", "not-utf8", "truncated"],
)
def test_parse_message_refuses_what_the_adapter_cannot_trust(line, reason):
    """Each refusal is a ValueError (never a RecursionError or UnicodeEncodeError later)."""
    with pytest.raises(ValueError, match=reason):
        parse_message(line)


def test_parse_message_accepts_the_deepest_allowed_document():
    """Exactly 64 levels deep is accepted, with a valid surrogate pair."""
    line = b"[" * MAX_MESSAGE_DEPTH + b'"\\ud83d\\ude00"' + b"]" * MAX_MESSAGE_DEPTH
    value = parse_message(line)
    for _ in range(MAX_MESSAGE_DEPTH):
        value = value[0]
    assert value == "\U0001f600"


def test_a_write_to_an_iut_that_never_reads_ends_at_the_deadline():
    """1 MiB to a child that never reads its stdin: ReadTimeout at the deadline, not a hang."""
    child = ChildProcess([sys.executable, "-c", "import signal; signal.pause()"])
    try:
        with pytest.raises(ReadTimeout):
            child.send(b"x" * (1024 * 1024), time.monotonic() + 0.3)
    finally:
        child.kill()
    assert child.exit_code is not None
