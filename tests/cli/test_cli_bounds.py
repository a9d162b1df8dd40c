"""Every numeric option is bounded; a kit fault is no verdict; reproduce carries the limits.

* Each numeric option of each ``srdh`` command has a range the platform honours
  (:data:`conformance.cli._bounds.BOUNDS`): a value past it (``inf``, ``1e300``, max + 1) is one
  ``srdh: error:`` line naming the option, the value and the range, exit 2, never an internal
  error; the maximum itself is accepted; ``--help`` shows the range.
* An exception of the kit's own code while a scenario or property is judged is a kit error
  (``srdh: internal error: …``, exit 2), never the scenario's FAILED verdict.
* A failure's ``reproduce:`` command carries ``--timeout``, ``--max-message-bytes`` and
  ``--examples`` when the run's were not the defaults, also when replayed from a recording.
"""

from __future__ import annotations

import json
import shlex
import sys
import types
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin

import pytest
import typer.main

from conformance._kitfault import KitFault, is_kit_fault
from conformance.adapters import RUN_FILE, AdapterError, InProcessAdapter
from conformance.cli import EXIT_FAILED, EXIT_OK, EXIT_SETUP, app
from conformance.cli._bounds import BOUNDS, Bound
from tests.cli.conftest import ROOT

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from typer.testing import CliRunner

SCENARIO = "duplicate-tool-call-id-is-proposed"
REFERENCE = "reference_harness.iut:create"


def _numeric(annotation: Any) -> bool:
    if get_origin(annotation) in {Union, types.UnionType}:
        return {a for a in get_args(annotation) if a is not type(None)} <= {int, float}
    return annotation in {int, float}


def _numeric_options() -> Iterator[tuple[tuple[str, ...], Any]]:
    """``(command path, option)`` for every int or float option of every command."""

    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for name, sub in subcommands.items():
                yield from walk(sub, (*path, name))
            return
        for param in command.params:
            descriptor = getattr(param, "type_descriptor", None)
            if _numeric(getattr(descriptor, "annotation", None)):
                yield path, param

    yield from walk(typer.main.get_command(app), ())


NUMERIC = sorted((path, param.opts[0]) for path, param in _numeric_options())

# A command line for each command whose numeric options are checked, made to stop right after
# its options parse (an unknown scenario, a bad level, a missing folder), so that "accepted"
# costs no run; the value under test is appended.
PREFIX: dict[tuple[str, ...], list[str]] = {
    ("run",): ["run", "--iut-module", REFERENCE, "--level", "OUGHT"],
    ("demo",): ["demo", "no-such-scenario"],
    ("selftest",): ["selftest", "--mutant", "no_such_mutant"],
    ("serve",): ["serve", "--repo", "/nonexistent-srdh-repo"],
    ("validate",): ["validate", "/nonexistent-srdh-file.json"],
}
# what each prefix's own refusal says (the options parsed: this is no range error)
AFTER_PARSING = {
    ("run",): "--level 'OUGHT'",
    ("demo",): "unknown scenario id(s) 'no-such-scenario'",
    ("selftest",): "unknown mutant(s): no_such_mutant",
    ("serve",): "no such directory",
    ("validate",): "nonexistent-srdh-file.json",
}


def test_every_numeric_option_has_its_documented_bound() -> None:
    """Each int/float option of each command is in BOUNDS with the same range typer enforces."""
    found = list(_numeric_options())
    assert {p.opts[0] for _, p in found} == set(BOUNDS)
    for path, param in found:
        bound = BOUNDS[param.opts[0]]
        assert (param.min, param.max) == (bound.low, bound.high), (path, param.opts)
        assert path in PREFIX  # each command with one is exercised below


def _past(bound: Bound) -> list[str]:
    """Values outside ``bound``: max + 1, min - 1, and the non-finite floats."""
    if bound.kind == "a number":
        return [str(bound.high + 1), "inf", "1e300", "nan", "-inf"]
    return [str(bound.high + 1), str(bound.low - 1), "99999999999999999999999"]


CASES = [
    pytest.param(path, option, value, id=f"{' '.join(path)} {option} {value}")
    for path, option in NUMERIC
    for value in _past(BOUNDS[option])
]


@pytest.mark.parametrize(("path", "option", "value"), CASES)
def test_a_value_out_of_range_is_one_line_naming_option_value_and_range(
    runner: CliRunner, path: tuple[str, ...], option: str, value: str
) -> None:
    """max + 1, inf, 1e300: exit 2, one `srdh: error:` line with the range; no traceback."""
    bound = BOUNDS[option]
    result = runner.invoke(app, [*PREFIX[path], option, value])
    assert result.exit_code == EXIT_SETUP, result.output
    lines = result.stderr.strip().splitlines()
    assert lines == [f"srdh: error: {option} {value!r}: expected {bound.describe()}"]
    assert "Traceback" not in result.output
    assert "internal error" not in result.output


@pytest.mark.parametrize(("path", "option"), NUMERIC, ids=[f"{p[0]} {o}" for p, o in NUMERIC])
def test_the_maximum_and_the_minimum_are_accepted(
    runner: CliRunner, path: tuple[str, ...], option: str
) -> None:
    """Both ends parse: the command goes on to its own next refusal, not a range error."""
    bound = BOUNDS[option]
    for value in (bound.high, bound.low):
        result = runner.invoke(app, [*PREFIX[path], option, str(value)])
        assert result.exit_code == EXIT_SETUP, result.output
        assert AFTER_PARSING[path] in result.stderr, result.stderr
        assert f"{option} " not in result.stderr


@pytest.mark.parametrize(("path", "option"), NUMERIC, ids=[f"{p[0]} {o}" for p, o in NUMERIC])
def test_help_shows_each_range(runner: CliRunner, path: tuple[str, ...], option: str) -> None:
    """`srdh CMD -h` prints the range of each numeric option beside it."""
    bound = BOUNDS[option]
    shown = " ".join(runner.invoke(app, [*path, "-h"]).stdout.split())
    entry = shown.split("Options:", 1)[1].split(f"{option} ", 1)[1]
    assert f"{bound.low}<=x<={bound.high}" in entry.split(" --", 1)[0]


def test_validate_reads_with_the_largest_document_limit(runner: CliRunner) -> None:
    """--max-document-bytes sys.maxsize reads a real document (no OverflowError from read)."""
    example = min((ROOT / "schemas" / "examples" / "adapter-message" / "valid").glob("*.json"))
    limit = ["--max-document-bytes", str(sys.maxsize)]
    result = runner.invoke(app, ["validate", "--contract", "adapter-message", *limit, str(example)])
    assert result.exit_code == EXIT_OK, result.output


def test_a_stdio_run_honours_the_largest_timeout_and_message_limit(runner: CliRunner) -> None:
    """The user's `--timeout inf` run, at the largest allowed values: it runs and passes."""
    iut = f"{sys.executable} -m reference_harness.stdio"
    limits = ["--timeout", "86400", "--max-message-bytes", str(sys.maxsize)]
    result = runner.invoke(
        app, ["run", "--iut", iut, "--examples", "0", "--scenario", SCENARIO, *limits]
    )
    assert result.exit_code == EXIT_OK, result.output
    assert "run PASSED" in result.stdout


# --- a kit fault is no verdict --------------------------------------------------------------

FAULT = "timestamp out of range for platform time_t"


def _faulty(*_: object, **__: object) -> dict[str, Any]:
    raise OverflowError(FAULT)


def test_is_kit_fault_tells_verdicts_from_the_kits_own_exceptions() -> None:
    """Checks and IUT failures are verdicts; anything else (groups included) is the kit's."""
    assert not is_kit_fault(AssertionError("[R1] broken"))
    assert not is_kit_fault(AdapterError("IUT hung"))
    assert not is_kit_fault(KeyboardInterrupt())
    assert not is_kit_fault(ExceptionGroup("flaky", [AssertionError("a")]))
    assert is_kit_fault(OverflowError(FAULT))
    assert is_kit_fault(KeyError("run_id"))
    assert is_kit_fault(ExceptionGroup("flaky", [AssertionError("a"), TypeError("b")]))


def test_a_kit_step_that_raises_is_a_kit_error_not_a_failed_scenario(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A When step of the kit raising OverflowError: exit 2, `internal error`, no FAILED."""
    monkeypatch.setattr("conformance.bdd._when.fit_to_capabilities", _faulty)
    report = tmp_path / "report"
    args = ["--scenario", SCENARIO, "--examples", "0", "--report", str(report)]
    result = runner.invoke(app, ["run", "--iut-module", REFERENCE, *args])
    assert result.exit_code == EXIT_SETUP, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"srdh: internal error: OverflowError: {FAULT} (while judging ")
    assert f"scenario {SCENARIO}" in line
    assert "not a verdict on the implementation" in line
    assert "FAILED" not in result.stdout
    assert not (report / "report.json").exists()


def test_a_kit_fault_inside_a_property_is_a_kit_error(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The property's own body raising (not its check): exit 2, `while judging property …`."""
    monkeypatch.setattr("conformance.properties._check.fit_to_capabilities", _faulty)
    args = ["--scenario", f"{SCENARIO}-property", "--examples", "1"]
    result = runner.invoke(app, ["run", "--iut-module", REFERENCE, *args])
    assert result.exit_code == EXIT_SETUP, result.output
    assert f"OverflowError: {FAULT} (while judging property {SCENARIO}" in result.stderr
    assert "FAILED" not in result.stdout


def test_a_kit_fault_is_no_kill_in_the_self_tests_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """The self-test's suite session raises KitFault instead of recording a failed item."""
    from conformance.suite._session import suite_session  # noqa: PLC0415 - the self-test's

    monkeypatch.setattr("conformance.bdd._when.fit_to_capabilities", _faulty)
    adapter = InProcessAdapter(REFERENCE)
    adapter.hello()
    with pytest.raises(KitFault) as raised:
        suite_session(lambda session: session.run_scenario(adapter, SCENARIO))
    adapter.close()
    assert isinstance(raised.value.error, OverflowError)
    assert SCENARIO in raised.value.where


# --- reproduce carries every option that changes the verdict --------------------------------

LIMITS = ["--timeout", "2", "--max-message-bytes", "4096", "--examples", "0"]


def _reproduce_lines(output: str) -> list[str]:
    return [
        line.split("reproduce: ", 1)[1] for line in output.splitlines() if "reproduce: " in line
    ]


def test_reproduce_and_its_replay_carry_timeout_message_limit_and_examples(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing run with non-default limits: each reproduce line has them, replayed too."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "conformance" / "iuts"))
    recording = tmp_path / "recording"
    iut = ["--iut-module", "broken_factories:raises"]
    select = ["--scenario", SCENARIO, "--record", str(recording)]
    result = runner.invoke(app, ["run", *iut, *select, *LIMITS])
    assert result.exit_code == EXIT_FAILED, result.output
    (command,) = _reproduce_lines(result.stdout)
    args = shlex.split(command)
    for option, value in zip(LIMITS[::2], LIMITS[1::2], strict=True):
        assert args[args.index(option) + 1] == value, command
    again = runner.invoke(app, args[1:])  # the command as printed fails the same scenario
    assert again.exit_code == EXIT_FAILED
    assert _reproduce_lines(again.stdout) == [command]
    replayed = runner.invoke(app, ["replay", str(recording)])
    assert replayed.exit_code == EXIT_FAILED
    assert _reproduce_lines(replayed.stdout) == [command]


def test_default_limits_stay_out_of_the_reproduce_line() -> None:
    """Only what differs from the defaults is written (the timeout exactly, never rounded)."""
    from conformance.cli._run import RunOptions  # noqa: PLC0415

    def options(**limits: Any) -> RunOptions:
        return RunOptions(None, REFERENCE, (), None, None, None, **limits)

    assert options(timeout_s=30.0).limit_args() == ""
    assert options(timeout_s=0.25).limit_args() == " --timeout 0.25"
    assert options(timeout_s=1234567.5).limit_args() == " --timeout 1234567.5"
    assert options(timeout_s=30.0, max_message_bytes=2048).limit_args() == (
        " --max-message-bytes 2048"
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [("timeout_s", 1e300), ("max_message_bytes", sys.maxsize + 1), ("examples", 10**7)],
)
def test_a_recording_with_a_limit_out_of_range_is_refused(
    runner: CliRunner, tmp_path: Path, key: str, value: object
) -> None:
    """run.json naming a limit outside its option's range: exit 2, a line at its pointer."""
    recording = tmp_path / "recording"
    recording.mkdir()
    (recording / "exchange.ndjson").write_text("", encoding="utf-8")
    kit = {"name": "srdh-conformance-kit", "version": "0.1.0"}
    options = {"kit": kit, "iut": None, "iut_module": REFERENCE, "scenarios": [SCENARIO]}
    options |= {"level": None, "examples": 0, "fixture": None, key: value}
    (recording / RUN_FILE).write_text(json.dumps(options), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(recording)])
    assert result.exit_code == EXIT_SETUP, result.output
    lines = result.stderr.strip().splitlines()
    assert any(f"{RUN_FILE}:1: /{key}: " in line for line in lines), lines
    assert "Traceback" not in result.output


def test_the_recording_format_holds_the_options_ranges() -> None:
    """recording-run.schema.json bounds each recorded limit exactly as its option is bounded."""
    schema_path = ROOT / "conformance" / "adapters" / "schemas" / "recording-run.schema.json"
    members = json.loads(schema_path.read_text("utf-8"))["properties"]
    for key, option in (
        ("examples", "--examples"),
        ("timeout_s", "--timeout"),
        ("max_message_bytes", "--max-message-bytes"),
    ):
        bound = BOUNDS[option]
        assert (members[key]["minimum"], members[key]["maximum"]) == (bound.low, bound.high), key


def test_the_cli_doc_lists_each_bound() -> None:
    """docs/cli.md's "Numeric options" table gives each option its range as the code has it."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text.split("### Numeric options", 1)[1].split("###", 1)[0]
    rows = {line.split("|")[1].strip(" `"): line for line in table.splitlines() if "| `--" in line}
    assert set(rows) == set(BOUNDS)
    for option, bound in BOUNDS.items():
        low, high = (f"{v:g}" if isinstance(v, float) else str(v) for v in (bound.low, bound.high))
        high = "`sys.maxsize`" if bound.high == sys.maxsize else high
        assert f"| {low} to {high}" in rows[option], option
