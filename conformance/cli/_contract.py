"""``srdh contract check | update | bump NAME``: evolve the contract schemas (freeze lock, $id)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import EXIT_FAILED, CliSetupError
from conformance.cli._output import Output

__all__ = ["contract_app"]

contract_app = typer.Typer(
    name="contract",
    help="Check, record or version-bump contract schema changes (the freeze lock).",
    no_args_is_help=True,
)

_Repo = Annotated[
    Path, typer.Option("--repo", help="Repository with schemas/ and schemas/freeze.lock.json.")
]


def _schemas(repo: Path) -> Path:
    folder = repo / "schemas"
    if not (folder / "freeze.lock.json").is_file():
        msg = f"{folder / 'freeze.lock.json'}: no freeze lock (is {repo} the kit's repository?)"
        raise CliSetupError(msg)
    return folder


def _print(out: Output, judgement: object, *, everything: bool) -> None:
    from conformance.evolution import ContractState, LockJudgement  # noqa: PLC0415 - lazy

    assert isinstance(judgement, LockJudgement)  # noqa: S101 - for the type checker
    for verdict in judgement.verdicts:
        if everything or verdict.state is not ContractState.UNCHANGED:
            out.line(verdict.line())


@contract_app.command("check")
def check(repo: _Repo = Path()) -> None:
    """Judge REPO/schemas against the freeze lock, contract by contract.

    A change `srdh diff` calls compatible in the contract's direction is a minor change (record
    it: `srdh contract update`); a breaking one needs the next $id version (`srdh contract bump
    NAME`). Exit 1 while a change waits for either.
    """
    from conformance.evolution import check_lock  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    folder = _schemas(repo)
    judgement = check_lock(folder, folder / "freeze.lock.json")
    _print(out, judgement, everything=False)
    waiting = [v for v in judgement.verdicts if v.state.blocking]
    out.line("freeze lock ok" if not waiting else f"{len(waiting)} contract(s) need attention")
    if waiting:
        raise typer.Exit(EXIT_FAILED)


_Regenerate = Annotated[
    bool, typer.Option(help="Regenerate the Pydantic models and TypeScript types.")
]


def _generated(out: Output, ran: list[str], to_run: list[str]) -> None:
    for command in ran:
        out.line(f"ran {command}")
    for command in to_run:
        out.line(f"run: {command}")
    if to_run:
        raise typer.Exit(EXIT_FAILED)


@contract_app.command("update")
def update(repo: _Repo = Path(), *, regenerate: _Regenerate = True) -> None:
    """Record every non-breaking change in the freeze lock (annotations, minor changes, new $ids).

    Then regenerates the models and TypeScript types (or prints the commands, exit 1, when REPO
    is not the running kit's checkout). Refuses (exit 2, nothing written) while a breaking
    change sits under a frozen $id.
    """
    from conformance import evolution  # noqa: PLC0415 - lazy

    out = Output()
    folder = _schemas(repo)
    judgement = evolution.update_lock(folder, folder / "freeze.lock.json")
    _print(out, judgement, everything=False)
    out.line(f"recorded in {folder / 'freeze.lock.json'}")
    if regenerate:
        _generated(out, *evolution.regenerate(repo))


@contract_app.command("bump")
def bump(
    name: Annotated[str, typer.Argument(help="Contract name (schema file stem).")],
    repo: _Repo = Path(),
    *,
    regenerate: _Regenerate = True,
) -> None:
    """Give contract NAME the next $id version and rewrite everything that references it.

    Rewrites the $ref of every schema and the $schema of every example, data file and fixture
    naming the old $id; bumps each referring contract the change breaks in its direction; records
    the freeze lock; regenerates the models and TypeScript types (or prints the commands).
    """
    from conformance.evolution import bump_contract  # noqa: PLC0415 - lazy

    out = Output()
    _schemas(repo)
    result = bump_contract(repo, name, generate=regenerate)
    for contract, old_id, new_id in result.bumped:
        out.line(f"bumped {contract}: {old_id} -> {new_id} ({result.reasons.get(contract, '')})")
    for path in result.rewritten:
        out.line(f"rewrote {path}")
    out.line("recorded the freeze lock")
    _generated(out, result.regenerated, result.to_run)
