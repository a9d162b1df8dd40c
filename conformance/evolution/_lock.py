"""``srdh contract check`` / ``update``: the freeze lock with minor changes.

:func:`check_lock` judges the schemas (:func:`~conformance.evolution._judge.judge`);
:func:`update_lock` records annotations, new ``$id`` versions and minor changes, and refuses a
breaking change under a frozen ``$id`` (naming the ``srdh contract bump`` command to run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conformance.evolution._judge import ContractState, LockJudgement, judge
from contracts.freeze import FreezeError, update

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["EvolutionError", "check_lock", "update_lock"]


class EvolutionError(Exception):
    """A contract change cannot be made as asked; ``str()`` names the contract and the command."""


def check_lock(schemas: Path | None = None, lock_path: Path | None = None) -> LockJudgement:
    """Judge the schemas in ``schemas`` (default: the kit's) against the lock.

    Raises:
        EvolutionError: the lock file does not exist.
    """
    try:
        return judge(schemas, lock_path)
    except FileNotFoundError as error:
        msg = f"{error.filename}: no freeze lock (run: srdh contract update)"
        raise EvolutionError(msg) from None


def update_lock(schemas: Path | None = None, lock_path: Path | None = None) -> LockJudgement:
    """Record every non-breaking change in the lock; return the judgement it recorded.

    Raises:
        EvolutionError: a breaking change under a frozen ``$id`` (each named with its
            ``srdh contract bump NAME``); nothing is written.
    """
    judgement = judge(schemas, lock_path) if _exists(lock_path, schemas) else None
    if judgement is not None:
        breaking = judgement.of(ContractState.BREAKING)
        if breaking:
            raise EvolutionError("; ".join(v.line() for v in breaking))
    accept = [v.key for v in judgement.of(ContractState.MINOR)] if judgement else []
    try:
        update(schemas, lock_path, accept=accept)
    except FreezeError as error:  # pragma: no cover - judge() refused these first
        raise EvolutionError(str(error)) from None
    return judgement or judge(schemas, lock_path)


def _exists(lock_path: Path | None, schemas: Path | None) -> bool:
    from contracts.freeze import default_lock_path  # noqa: PLC0415 - one place of the default

    del schemas
    return (lock_path or default_lock_path()).is_file()
