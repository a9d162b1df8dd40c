"""Judge the contract schemas against the freeze lock: unchanged, minor, breaking or bumped.

The freeze lock (:mod:`contracts.freeze`) holds, per frozen ``$id``, the digests of a schema and
the frozen copy of what it validates. A schema whose validation part changed is classified here
by the schema differ (:func:`conformance.schemadiff.diff_documents`) against that copy, in the
contract's direction (the ``CONTRACTS`` registry):

- every change compatible for the direction: a *minor* change, recorded by
  ``srdh contract update`` (``minor`` counts them in the lock);
- a breaking change: the ``$id`` needs a new version (``srdh contract bump NAME``);
- a schema under a new ``$id`` version of a frozen contract is *bumped* (its breaking changes are
  what the bump is for); a change reaches every contract that ``$ref``s it, in that contract's
  direction, so a contract whose own file did not change can need a bump too.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance.schemadiff import Direction, SchemaChange, diff_documents
from contracts import CONTRACTS, schema_dir
from contracts.freeze import check, compute_lock, default_lock_path, read_lock

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["ContractState", "ContractVerdict", "LockJudgement", "contract_of_key", "judge"]


class ContractState(enum.Enum):
    """Where one lock key stands; :attr:`blocking` states fail ``srdh contract check``."""

    UNCHANGED = "unchanged"
    ANNOTATED = "annotations changed"
    MINOR = "minor change"
    BREAKING = "breaking change"
    PROTOCOL = "protocol schema changed"
    BUMPED = "new $id version"
    NEW = "new contract"
    RETIRED = "superseded"

    @property
    def blocking(self) -> bool:
        """True for the states the lock must record (or a bump must resolve) first."""
        return self in {
            ContractState.ANNOTATED,
            ContractState.MINOR,
            ContractState.BREAKING,
            ContractState.PROTOCOL,
        }


@dataclass(frozen=True)
class ContractVerdict:
    """One lock key's state and the classified changes behind it.

    Attributes:
        key: the lock key (the ``$id``, ``#protocol-<version>`` for a protocol schema).
        contract: the contract name (the ``$id``'s file stem).
        state: see :class:`ContractState`.
        changes: the non-neutral changes of this contract (its own and seen through ``$ref``).
    """

    key: str
    contract: str
    state: ContractState
    changes: tuple[SchemaChange, ...] = ()

    @property
    def action(self) -> str:
        """The command that resolves a blocking state, else ``none``."""
        if self.state is ContractState.ANNOTATED or self.state is ContractState.MINOR:
            return "srdh contract update"
        if self.state is ContractState.BREAKING:
            return f"srdh contract bump {self.contract}"
        if self.state is ContractState.PROTOCOL:
            return "srdh contract update (bump the hello protocol_version once released)"
        return "none"

    def line(self) -> str:
        """One line: key, state, the first breaking (else first) change, and the action."""
        text = f"{self.key}: {self.state.value}"
        shown = [c for c in self.changes if c.breaking] or list(self.changes)
        if shown:
            first = shown[0]
            more = f" (+{len(shown) - 1} more)" if len(shown) > 1 else ""
            text += f" ({first.rule.label} at {first.pointer or '/'}: {first.detail}{more})"
        if self.state.blocking:
            text += f"; run: {self.action}"
        return text


@dataclass(frozen=True)
class LockJudgement:
    """Every lock key's verdict (current schemas, then superseded keys)."""

    verdicts: tuple[ContractVerdict, ...]

    @property
    def ok(self) -> bool:
        """True when no verdict is blocking."""
        return not any(v.state.blocking for v in self.verdicts)

    def of(self, state: ContractState) -> list[ContractVerdict]:
        """The verdicts in ``state``."""
        return [v for v in self.verdicts if v.state is state]


def contract_of_key(key: str) -> str:
    """The contract name of a lock key (``…/v2/tool-call-id.schema.json`` → ``tool-call-id``)."""
    last = key.partition("#")[0].rsplit("/", 1)[-1]
    return last.removesuffix(".schema.json")


def _directions() -> dict[str, Direction]:
    return {name: Direction(info.direction.value) for name, info in CONTRACTS.items()}


def judge(schemas: Path | None = None, lock_path: Path | None = None) -> LockJudgement:
    """Classify every schema of ``schemas`` (default: the kit's) against the lock.

    Raises:
        FileNotFoundError: the lock file does not exist.
    """
    folder = schemas or schema_dir()
    lock = lock_path or default_lock_path()
    current, frozen, report = compute_lock(folder), read_lock(lock), check(folder, lock)
    old = {contract_of_key(k): v for k, v in frozen.frozen.items()}
    new = {contract_of_key(k): v for k, v in current.frozen.items()}
    by_contract: dict[str, list[SchemaChange]] = {}
    for change in diff_documents(old, new, directions=_directions()):
        if change.rule.effect.value != "neutral":
            by_contract.setdefault(change.contract, []).append(change)
    verdicts: list[ContractVerdict] = []
    for key in current.validation:
        name = contract_of_key(key)
        changes = tuple(by_contract.get(name, ()))
        breaking = any(c.breaking for c in changes)
        if key in report.unfrozen:
            bumped = any(contract_of_key(k) == name for k in frozen.validation)
            state = ContractState.BUMPED if bumped else ContractState.NEW
        elif "#protocol-" in key and (key in report.changed or breaking):
            state = ContractState.PROTOCOL  # versioned by the stdio protocol, not its $id
        elif key in report.changed and key not in frozen.frozen:
            state = ContractState.BREAKING  # no frozen copy to classify against
        elif breaking:
            state = ContractState.BREAKING
        elif key in report.changed:
            state = ContractState.MINOR
        elif key in report.annotated:
            state = ContractState.ANNOTATED
        else:
            state = ContractState.UNCHANGED
        verdicts.append(ContractVerdict(key, name, state, changes))
    verdicts += [
        ContractVerdict(key, contract_of_key(key), ContractState.RETIRED) for key in report.retired
    ]
    return LockJudgement(tuple(verdicts))
