"""Contract evolution: the freeze lock's minor changes, and ``$id`` version bumps.

The spec author's side of the versioning convention (``docs/contracts.md``): a schema change that
the schema differ calls compatible in the contract's direction is a *minor* change, recorded in
the freeze lock (``srdh contract update``); a breaking one needs the next ``$id`` version, which
``srdh contract bump NAME`` gives the contract and every schema and document that references it
(``python -m conformance.evolution --check`` is the verify step "freeze lock").
"""

from conformance.evolution._bump import (
    DOCUMENT_FOLDERS,
    REGENERATE,
    BumpResult,
    bump_contract,
    regenerate,
)
from conformance.evolution._judge import (
    ContractState,
    ContractVerdict,
    LockJudgement,
    contract_of_key,
    judge,
)
from conformance.evolution._lock import EvolutionError, check_lock, update_lock

__all__ = [
    "DOCUMENT_FOLDERS",
    "REGENERATE",
    "BumpResult",
    "ContractState",
    "ContractVerdict",
    "EvolutionError",
    "LockJudgement",
    "bump_contract",
    "check_lock",
    "contract_of_key",
    "judge",
    "regenerate",
    "update_lock",
]
