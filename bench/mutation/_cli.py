"""Command line of the mutation run (see :mod:`bench.mutation._driver` for what it does)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench.mutation._config import TARGETS
from bench.mutation._driver import Options, run

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, run, print the summary as JSON. Exit 0 when it ran, 2 on a usage error."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.mutation",
        description="Mutation testing of the reference Harness's rule modules; the only killer "
        "is the conformance suite over stdio.",
    )
    parser.add_argument(
        "--modules",
        nargs="+",
        default=(),
        metavar="PATH",
        help=f"target modules (default: all): {', '.join(t.path for t in TARGETS)}",
    )
    parser.add_argument("--sample", type=int, help="try this many mutants, drawn at random")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument("--out", type=Path, default=Path("bench/out/mutation"))
    parser.add_argument("--workers", type=int, default=1, help="mutants judged at once")
    parser.add_argument("--mutant-timeout", type=float, default=240.0, metavar="SECONDS")
    parser.add_argument(
        "--survivors-of",
        type=Path,
        metavar="RESULTS_JSON",
        help="re-run only the survivors recorded in this results.json (same mutants, found "
        "again by their change) against the current checkout; --sample/--seed/--modules ignored",
    )
    parser.add_argument(
        "--exclude",
        type=Path,
        nargs="+",
        default=(),
        metavar="RESULTS_JSON",
        help="leave out the mutants recorded in these results.json (after the sample is drawn: "
        "--sample 300 --exclude <the --sample 150 run, same seed> runs a disjoint 150)",
    )
    args = parser.parse_args(argv)
    try:
        summary = run(
            Options(
                modules=tuple(args.modules),
                sample=args.sample,
                seed=args.seed,
                out=args.out,
                mutant_timeout_s=args.mutant_timeout,
                workers=max(1, args.workers),
                survivors_of=args.survivors_of,
                exclude=tuple(args.exclude),
            )
        )
    except ValueError as error:
        print(f"python -m bench.mutation: {error}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2))
    return 0
