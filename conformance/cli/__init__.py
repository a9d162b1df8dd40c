"""The ``srdh`` command line (console script ``srdh = conformance.cli:main``).

Exit codes: 0 everything holds, 1 non-conformance, 2 usage or setup. See ``docs/cli.md``. One
module per command (``_run.py``: its options and its work), shared helpers beside them
(``_errors.py``, ``_output.py``, ``_failures.py``, ``_suite.py``); commands import their work
lazily, so ``srdh --help`` stays fast.

The application has a single error boundary: every command runs inside :class:`_SrdhGroup.invoke`,
the top of the CLI. It turns the kit's documented error families (bad documents, bad specs,
adapters and suites that cannot start, gate setup, schema files, file-system errors) into one line
on standard error and exit code 2. Nothing broader is caught, except the last-resort handler: a bug
in the kit must not greet a user with a traceback either, so it prints one line naming the
exception type (and ``SRDH_DEBUG=1`` re-raises it for a developer) and exits 2 — a kit failure is
never reported as conformance or non-conformance. An exception of the kit's own code while a
scenario is judged reaches it as a :class:`~conformance._kitfault.KitFault` (never a FAILED
verdict). A numeric option's value outside its range (:mod:`._bounds`) is one usage line too:
``srdh: error: --timeout 'inf': expected a number from 0.1 to 86400 (…)``, exit 2.

The kit's own I/O faults are not verdicts either: ``main`` guards the standard streams first
(:mod:`._streams`: a closed pipe, a full device or a missing standard error drop output instead of
raising; an encoding without a character shows it escaped) and ignores ``SIGXFSZ`` (a file-size
limit fails a write with ``EFBIG``, which names the file, instead of killing the kit). A command
whose output was lost runs to its end (its reports written) and exits 2, saying so.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from conformance._inert import terminal_text
from conformance._kitfault import KitFault
from conformance.cli._bounds import out_of_range
from conformance.cli._contract import contract_app
from conformance.cli._demo import demo
from conformance.cli._diff import diff
from conformance.cli._errors import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_SETUP,
    CliSetupError,
    describe,
    kit_error_families,
)
from conformance.cli._gate import gate
from conformance.cli._heap import own_heap
from conformance.cli._replay import replay
from conformance.cli._run import run
from conformance.cli._scenario import scenario_app
from conformance.cli._selftest import selftest
from conformance.cli._serve import serve
from conformance.cli._spec import spec_app
from conformance.cli._streams import guard_standard_streams, lost_output
from conformance.cli._trace import trace
from conformance.cli._validate import validate
from conformance.cli._verify import verify

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_SETUP", "CliSetupError", "app", "main"]


class _SrdhGroup(TyperGroup):
    """The root command group: the one place where errors become exit codes."""

    def main(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - click's own signature
        """Run the command; a usage error is one ``srdh: error:`` line (exit 2), as every error.

        Click's own format (usage line, hint, blank line, ``Error: …``) is replaced by
        ``srdh: error: <message> (see 'srdh CMD --help')``; a command given no arguments where
        it needs some still prints its help.
        """
        if kwargs.get("standalone_mode", True) is False:
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except typer.Abort:
            typer.echo("srdh: error: aborted", err=True)
            sys.exit(EXIT_FAILED)
        except typer.TyperException as exc:  # click's errors (typer vendors click)
            if type(exc).__name__ == "NoArgsIsHelpError":  # the help text, as click prints it
                typer.echo(exc.format_message(), err=True)
                sys.exit(exc.exit_code)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            typer.echo(terminal_text(f"srdh: error: {exc.format_message()}{hint}"), err=True)
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else EXIT_OK)

    # ctx is typed Any: typer vendors click, and its Context class is not public API.
    def invoke(self, ctx: Any) -> Any:  # noqa: ANN401 - click's own signature
        try:
            return super().invoke(ctx)
        except typer.BadParameter as exc:
            message = out_of_range(exc)  # a numeric option's value: one line, with its range
            if message is None:
                raise
            typer.echo(f"srdh: error: {terminal_text(message)}", err=True)
            raise typer.Exit(EXIT_SETUP) from None
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise
        except kit_error_families() as exc:
            typer.echo(f"srdh: error: {terminal_text(describe(exc))}", err=True)
            raise typer.Exit(EXIT_SETUP) from None
        except Exception as exc:
            # Last resort (see the module docstring): a kit bug, never a user's mistake.
            if os.environ.get("SRDH_DEBUG") == "1":
                raise
            # a KitFault (a kit exception while judging) already names the original's type
            what = str(exc) if isinstance(exc, KitFault) else f"{type(exc).__name__}: {exc}"
            typer.echo(
                terminal_text(f"srdh: internal error: {what} (set SRDH_DEBUG=1 for a traceback)"),
                err=True,
            )
            raise typer.Exit(EXIT_SETUP) from None


app = typer.Typer(
    name="srdh",
    cls=_SrdhGroup,
    help="SRDH conformance kit: spec lint, contracts, conformance suite, reports, phase gate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:  # noqa: FBT001 - typer passes the flag positionally
    if value:
        from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - only here

        try:
            typer.echo(f"srdh {version('srdh-conformance-kit')}")
        except PackageNotFoundError:
            typer.echo("srdh (not installed)")
        raise typer.Exit


@app.callback()
def _root(
    _version: bool = typer.Option(  # noqa: FBT001 - a flag
        False,  # noqa: FBT003 - typer's default argument
        "--version",
        help="Print the kit's version and exit.",
        callback=_print_version,
        is_eager=True,
    ),
) -> None:
    """SRDH conformance kit: spec lint, contracts, conformance suite, reports, phase gate."""


app.command("verify")(verify)
app.command("run")(run)
app.command("replay")(replay)
app.command("gate")(gate)
app.command("diff")(diff)
app.command("demo")(demo)
app.command("selftest")(selftest)
app.command("serve")(serve)
app.command("validate")(validate)
app.add_typer(spec_app)
app.add_typer(contract_app)
app.add_typer(scenario_app)
app.command("trace")(trace)


def _asked_for_reports(args: list[str]) -> bool:
    """True when the command line gives ``--report`` (``--report DIR`` or ``--report=DIR``)."""
    return any(arg == "--report" or arg.startswith("--report=") for arg in args)


def main() -> None:
    """Console-script entry point (``srdh``): run the app, exit with its code.

    Errors inside a command are handled by the group; this handler covers what happens before a
    command runs (building the command tree), with the same last-resort rule. Output lost on the
    way (see the module docstring) turns the exit code into 2, with one line saying what was lost.
    """
    guard_standard_streams()
    own_heap()  # this process is srdh's: a command may freeze what its imports built
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    code: int | str | None
    try:
        app(prog_name="srdh")
        code = EXIT_OK
    except SystemExit as stop:
        code = stop.code
    except Exception as exc:
        if os.environ.get("SRDH_DEBUG") == "1":
            raise
        typer.echo(terminal_text(f"srdh: internal error: {type(exc).__name__}: {exc}"), err=True)
        code = EXIT_SETUP
    lost = lost_output()
    if lost:
        # only a command given --report wrote reports: `validate > /dev/full` is not told so
        reports = " (its reports written)" if _asked_for_reports(sys.argv[1:]) else ""
        sys.stderr.write(
            f"srdh: error: {'; '.join(lost)}; the command ran to its end{reports}, but not all "
            "of its output was shown\n"
        )
        sys.stderr.flush()
        code = EXIT_SETUP
    sys.exit(code)
