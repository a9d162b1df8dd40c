"""``python -m conformance.evolution --check | --update``: the freeze lock, judged.

``--check`` exits 0 when no contract change is waiting (unrecorded annotations or minor changes,
a breaking change under a frozen ``$id``), printing one line per contract that is not unchanged
and a last line ``freeze lock ok`` or ``N contract(s) need attention``; ``--update`` records
every non-breaking change. ``srdh verify`` runs ``--check`` as its "freeze lock" step.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.evolution._judge import ContractState
from conformance.evolution._lock import EvolutionError, check_lock, update_lock


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return 0 (ok) or 1 (a change needs recording or a bump)."""
    parser = argparse.ArgumentParser(prog="python -m conformance.evolution", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="judge the schemas against the lock")
    action.add_argument("--update", action="store_true", help="record every non-breaking change")
    parser.add_argument("--schemas", type=Path, default=None, help="schema folder")
    parser.add_argument("--lock", type=Path, default=None, help="lock file")
    args = parser.parse_args(argv)
    try:
        judgement = (update_lock if args.update else check_lock)(args.schemas, args.lock)
    except EvolutionError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    for verdict in judgement.verdicts:
        if verdict.state is not ContractState.UNCHANGED:
            stream = sys.stderr if verdict.state.blocking and args.check else sys.stdout
            stream.write(f"{verdict.line()}\n")
    if args.update:
        frozen = sum(v.state is not ContractState.RETIRED for v in judgement.verdicts)
        sys.stdout.write(f"froze {frozen} schemas\n")
        return 0
    waiting = [v for v in judgement.verdicts if v.state.blocking]
    if waiting:
        sys.stdout.write(f"{len(waiting)} contract(s) need attention\n")
        return 1
    sys.stdout.write("freeze lock ok\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
