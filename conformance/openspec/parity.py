"""Differential fuzzing of the OpenSpec linter against the official CLI (issue 11 item 5).

Generates seeded OpenSpec trees that stress what parsers get wrong (fences at any indentation and
inside list items, unclosed and mismatched fences, header variants, CRLF/CR line endings, a BOM,
JavaScript-only and Python-only white space, names in many scripts, Purpose lengths counted in
UTF-16, delta sections of every kind), runs ``openspec validate --all --strict --no-interactive
--json`` once per batch, and compares each item's verdict with :func:`lint_items` under the
official rules only (``kit_rules=False``). For main specs valid on both sides it also compares the
requirement count (``openspec list --specs --json``) with the kit's parsed requirements.

A *tree* is one main spec ``c<n>`` plus one change ``ch<n>`` whose delta specs target ``c<n>`` (and
sometimes a new capability): trees share a batch folder but never read each other's files, so a
batch of many trees costs one CLI call. Usage (the full campaign, ~1,000 trees)::

    OPENSPEC_TELEMETRY=0 .venv/bin/python -m conformance.openspec.parity --trees 1000 --seed 1

It prints one JSON summary (trees, items compared, disagreements with their seeds) and exits 1 on
any disagreement, writing each disagreeing tree under ``--keep`` for reproduction.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.openspec._lint import lint_items
from conformance.openspec._lint_spec import requirement_titles
from conformance.openspec._parser import spec_from_source
from conformance.openspec._source import Source
from conformance.openspec._tree import main_spec_files, openspec_dir
from contracts import StrictJSONError, loads_strict

__all__ = ["Disagreement", "ParityResult", "generate_batch", "main", "run_campaign"]

CLI_ARGS = ("validate", "--all", "--strict", "--no-interactive", "--json")

_NAMES = (
    "Alerts SHALL be deduplicated",
    "Silences SHALL be honoured",
    "告警去重",
    "静默到期",
    "Café crème service",
    "\uff26\uff55\uff4c\uff4c width name",
    "C# parser",
    "名前 with spaces",
    "Ελληνικά όνομα",
    "Имя требования",
    "🚨 alert",
    "name ###",
    "name\u00a0###",
    "trailing\u3000space",
    "tab\tinside",
    "x\u2028y",
    "z\u0085w",
    "Stage 6B cutover",
)
_FENCE_BODY = (
    "### Requirement: Example only",
    "## Requirements",
    "#### Scenario: fenced",
    "## ADDED Requirements",
    "- **WHEN** fenced step",
    "The fenced text SHALL not count.",
    "## Purpose",
)
_WS = ("", " ", "  ", "\t", "\u00a0", "\u3000", "\u0085", "\ufeff", "\u2028")


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One item on which the kit and the official CLI disagree."""

    tree: int
    item: str
    kit: object
    cli: object
    what: str


@dataclass
class ParityResult:
    """What a campaign compared: trees, items, requirement counts and every disagreement."""

    trees: int = 0
    items: int = 0
    counts_compared: int = 0
    cli_calls: int = 0
    valid_items: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "trees": self.trees,
            "items": self.items,
            "valid_items": self.valid_items,
            "requirement_counts_compared": self.counts_compared,
            "cli_calls": self.cli_calls,
            "disagreements": [
                {"tree": d.tree, "item": d.item, "kit": d.kit, "cli": d.cli, "what": d.what}
                for d in self.disagreements
            ],
        }


class _Gen:
    """Seeded building blocks of one tree.

    Every table lists ``(weight, option)`` with the well-formed option first; a *clean* tree
    (45 %) always takes that first option except for fences and Unicode, so that about a third
    of all items are valid and both verdicts are exercised.
    """

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)  # noqa: S311 - reproducible test data, not security
        self.clean = self.chance(0.45)

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def pick(self, options: tuple[str, ...] | list[str]) -> str:
        return self.r.choice(options)

    def weighted(self, table: tuple[tuple[float, str], ...], *, canonical: bool = True) -> str:
        if self.clean and canonical:
            return table[0][1]
        return self.r.choices([o for _, o in table], weights=[w for w, _ in table])[0]

    def fence(self) -> list[str]:
        char = self.pick(("`", "~"))
        n = self.r.choice((3, 3, 4, 5))
        indent = self.pick(("", "", "  ", "    ", "\t", "- ", "\u00a0", "\u0085"))
        info = self.pick(("", "", "md", "markdown", " js", "x`y"))
        lines = [f"{indent}{char * n}{info}"]
        lines += [self.pick(_FENCE_BODY) for _ in range(self.r.randint(0, 3))]
        other = "~" if char == "`" else "`"
        closer = self.weighted(
            (
                (6, f"{self.pick(('', '  ', ' '))}{char * (n + self.r.choice((0, 0, 1)))}"),
                (1, char * (n - 1)),  # too short: the fence stays open
                (1, other * n),  # the other character: stays open
                (1, f"{char * n} trailing"),  # text after it: stays open
                (1, ""),  # never closed: runs to the end of the file
            )
        )
        return [*lines, closer] if closer else lines

    def name(self) -> str:
        return self.pick(_NAMES)

    def body(self) -> list[str]:
        word = self.pick(("SHALL", "MUST"))
        text = self.weighted(
            (
                (55, f"The service {word} do the thing number {self.r.randint(1, 99)}."),
                (7, "The service shall do it in lower case."),
                (5, "The MUSTARD service SHALLOW check."),
                (5, "The \u00e9SHALL and MUST_ words."),
                (5, "**ID**: REQ-1\n**Priority**: high"),
                (5, "**ID**: REQ-2\nThe service MUST keep it."),
                (4, ""),
                (14, "First line without keyword\nthen a second line that MUST hold."),
            )
        )
        lines = text.split("\n") if text else []
        if self.chance(0.2):
            at = self.r.randint(0, len(lines))
            lines[at:at] = self.fence()
        return lines

    def steps(self) -> list[str]:
        if self.clean:
            out = ["- **WHEN** something happens", "- **THEN** something else happens"]
            if self.chance(0.3):
                out[1:1] = self.fence()
            return out
        out = []
        for _ in range(self.r.randint(0, 3)):
            keyword = self.pick(("WHEN", "THEN", "AND", "GIVEN"))
            kind = self.weighted(
                ((7, "step"), (1, "plain"), (1, "fence"), (1, "text")), canonical=False
            )
            if kind == "step":
                out.append(f"- **{keyword}** something happens {self.r.randint(1, 9)}")
            elif kind == "plain":
                out.append("- plain bullet")
            elif kind == "fence":
                out.extend(self.fence())
            else:
                out.append(self.pick(("", "text line", "  indented text")))
        return out

    def scenario(self) -> list[str]:
        name = self.name()
        line = self.weighted(
            (
                (70, f"#### Scenario: {name}"),
                (10, f"#### {name}"),
                (5, f"### Scenario: {name}"),
                (5, f"##### Scenario: {name}"),
                (10, f"####{self.pick(_WS)}Scenario: {name}"),
            )
        )
        return [line, "", *self.steps(), ""]

    def requirement(self, name: str | None = None) -> list[str]:
        name = name or self.name()
        line = self.weighted(
            (
                (75, f"### Requirement: {name}"),
                (5, f"###Requirement: {name}"),
                (5, f"### requirement:{name}"),
                (5, f"###{self.pick(_WS)}Requirement: {name}"),
                (5, f" ### Requirement: {name}"),
                (5, f"### {name}"),
            )
        )
        lines = [line, "", *self.body(), ""]
        for _ in range(self.r.choice((1, 1, 2) if self.clean else (0, 1, 1, 1, 2))):
            lines += self.scenario()
        return lines

    def purpose(self) -> list[str]:
        base = "Record what the toy capability promises to its users"
        length = self.r.choice((50, 51, 60, 100) if self.clean else (45, 48, 49, 50, 51, 60, 100))
        text = (base * 3)[:length]
        if self.chance(0.3):  # astral characters count twice in UTF-16
            text = text[: length - 4] + "\U0001f6a8\U0001f6a8"
        kind = self.weighted(
            ((80, "prose"), (10, "fenced"), (5, "placeholder"), (5, "empty")), canonical=False
        )
        if kind == "fenced":
            return [*self.fence(), text]
        if kind == "placeholder" and not self.clean:
            return [self.pick(("TBD", "todo: write it", "TBD - later", "TODOs are fine here x"))]
        if kind == "empty" and not self.clean:
            return []
        return [text]

    def main_spec(self, cap: str) -> tuple[str, list[str]]:
        lines = [f"# {cap} Specification", ""]
        if self.clean or not self.chance(0.05):
            title = self.weighted(
                ((85, "## Purpose"), (5, "### Purpose"), (5, "# Purpose"), (5, "## Purpose ##"))
            )
            lines += [title, "", *self.purpose(), ""]
        names: list[str] = []
        if self.clean or not self.chance(0.05):
            lines += [
                self.weighted(
                    (
                        (40, "## Requirements"),
                        (20, "## requirements"),
                        (20, "##  Requirements "),
                        (5, "## Requirements ##"),
                        (5, "##\tRequirements"),
                        (5, "## Requirements\u00a0"),
                        (5, "## Requirement\u017f"),  # a long s: no ASCII case fold
                    )
                ),
                "",
            ]
            for _ in range(self.r.randint(1, 3)):
                name = self.name() if not names or not self.chance(0.1) else names[0]
                while self.clean and name in names:
                    name = self.name()
                names.append(name)
                lines += self.requirement(name)
                if self.chance(0.1):
                    lines += self.fence()
        if not self.clean and self.chance(0.05):
            lines += ["## ADDED Requirements", ""]
        if not self.clean and self.chance(0.05):
            lines += ["## Notes", "", "### Requirement: Outside", "", "It MUST not count.", ""]
        return "\n".join(lines), names

    def delta(self, existing: list[str]) -> str:
        if self.clean:
            return self.clean_delta(existing)
        lines: list[str] = []
        for op in self.r.sample(("ADDED", "MODIFIED", "REMOVED", "RENAMED"), self.r.randint(1, 3)):
            title = f"{op} Requirements"
            title = self.pick((title, title.title(), title.lower(), f"{op}  Requirements"))
            lines += [f"## {title}", ""]
            for _ in range(self.r.randint(0, 2)):
                lines += self.entry(op, existing)
            lines.append("")
            if self.chance(0.1):
                lines += self.fence()
        return "\n".join(lines)

    def entry(self, op: str, existing: list[str]) -> list[str]:
        known = self.pick(existing) if existing and self.chance(0.6) else self.name()
        if op == "ADDED":
            return self.requirement()
        if op == "MODIFIED":
            return self.requirement(known)
        if op == "REMOVED":
            marker = self.pick(("- ", "* ", "+ ", ""))
            form = self.pick(("`### Requirement: {}`", "### Requirement: {}"))
            return [f"{marker}{form.format(known)}"]
        marker = self.pick(("- ", "* ", ""))
        pair = [
            f"{marker}FROM: `### Requirement: {known}`",
            f"{marker}TO: `### Requirement: {self.name()}`",
        ]
        return [line for line in pair if not self.chance(0.1)]

    def clean_delta(self, existing: list[str]) -> str:
        title = self.pick(("ADDED Requirements", "Added Requirements", "ADDED Requirements"))
        lines = [f"## {title}", ""]
        fresh = [n for n in _NAMES if n not in existing]
        for name in self.r.sample(fresh, self.r.randint(1, 2)):
            lines += self.requirement(name)
        if existing and self.chance(0.4):
            lines += ["## REMOVED Requirements", "", f"- `### Requirement: {existing[0]}`", ""]
        return "\n".join(lines)

    def encode(self, text: str) -> bytes:
        ending = self.weighted((((80, "\n"), (15, "\r\n"), (5, "\r"))), canonical=False)
        text = text.replace("\n", ending)
        if self.chance(0.15):
            text = "\ufeff" + text
        return text.encode("utf-8")


def generate_tree(root: Path, n: int, seed: int) -> None:
    """Write tree ``n`` (main spec ``c<n>``, change ``ch<n>``) under ``root/openspec``."""
    gen = _Gen(seed * 1_000_003 + n)
    cap = f"c{n}"
    text, names = gen.main_spec(cap)
    spec = root / "openspec" / "specs" / cap / "spec.md"
    spec.parent.mkdir(parents=True, exist_ok=True)
    spec.write_bytes(gen.encode(text))
    change = root / "openspec" / "changes" / f"ch{n}"
    change.mkdir(parents=True, exist_ok=True)
    (change / "proposal.md").write_text(
        "## Why\n\nA generated change for differential testing.\n", encoding="utf-8"
    )
    targets = [cap] if not gen.chance(0.2) else [cap, f"c{n}x"]
    for target in targets:
        delta = change / "specs" / target / "spec.md"
        delta.parent.mkdir(parents=True, exist_ok=True)
        delta.write_bytes(gen.encode(gen.delta(names if target == cap else [])))


def generate_batch(root: Path, first: int, count: int, seed: int) -> None:
    """Write trees ``first .. first + count - 1`` under ``root/openspec``."""
    for n in range(first, first + count):
        generate_tree(root, n, seed)


def _cli(binary: Path, root: Path, *args: str) -> dict[str, Any]:
    env = {**os.environ, "OPENSPEC_TELEMETRY": "0"}
    done = subprocess.run(  # noqa: S603 - the official CLI with fixed arguments
        [str(binary), *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    try:
        found: dict[str, Any] = loads_strict(done.stdout, source=f"openspec {args[0]} output")
    except StrictJSONError as exc:
        msg = f"openspec {' '.join(args)} printed no JSON (exit {done.returncode}): {done.stderr}"
        raise RuntimeError(msg) from exc
    return found


def _tree_of(item: str) -> int:
    digits = "".join(c for c in item if c.isdigit())
    return int(digits) if digits else -1


def compare_batch(binary: Path, root: Path, result: ParityResult) -> None:
    """Run the CLI once on ``root`` and record every per-item disagreement in ``result``."""
    report = _cli(binary, root, *CLI_ARGS)
    listed = _cli(binary, root, "list", "--specs", "--json")
    result.cli_calls += 2
    cli = {(i["type"], i["id"]): bool(i["valid"]) for i in report["items"]}
    kit = {
        (r.kind, r.id): r.valid
        for r in lint_items(root, strict=True, kit_rules=False)
        if r.kind != "archived-change"
    }
    result.items += len(cli.keys() | kit.keys())
    result.valid_items += sum(1 for k, v in cli.items() if v and kit.get(k))
    for key in sorted(cli.keys() | kit.keys()):
        if cli.get(key) != kit.get(key):
            what = "verdict"
            result.disagreements.append(
                Disagreement(
                    _tree_of(key[1]), f"{key[0]}:{key[1]}", kit.get(key), cli.get(key), what
                )
            )
    counts = {s["id"]: s.get("requirementCount") for s in listed.get("specs", [])}
    kit_valid = {r.id for r in lint_items(root, strict=True) if r.kind == "spec" and r.valid}
    for cap, path in main_spec_files(openspec_dir(root)).items():
        if cap not in counts:
            continue
        result.counts_compared += 1
        src = Source(path)
        titles = requirement_titles(src)
        ours = 0 if titles is None else len(titles)
        if counts[cap] != ours:
            result.disagreements.append(
                Disagreement(_tree_of(cap), f"spec:{cap}", ours, counts[cap], "requirement count")
            )
        blocks = len(spec_from_source(src).requirements)
        if cap in kit_valid and blocks != ours:
            # a spec the kit accepts: the kit's requirements are exactly the CLI's
            result.disagreements.append(
                Disagreement(_tree_of(cap), f"spec:{cap}", blocks, ours, "requirement blocks")
            )


def run_campaign(
    binary: Path, *, trees: int, seed: int, batch: int = 50, keep: Path | None = None
) -> ParityResult:
    """Generate ``trees`` trees in batches of ``batch`` and compare every item with the CLI.

    Disagreeing trees are copied under ``keep`` (``<keep>/tree-<n>/openspec``) when given.
    """
    result = ParityResult()
    for first in range(0, trees, batch):
        count = min(batch, trees - first)
        with tempfile.TemporaryDirectory(prefix="srdh-parity-") as tmp:
            root = Path(tmp)
            generate_batch(root, first, count, seed)
            before = len(result.disagreements)
            compare_batch(binary, root, result)
            result.trees += count
            if keep is not None:
                for d in result.disagreements[before:]:
                    _keep_tree(root, d.tree, keep)
    return result


def _keep_tree(root: Path, n: int, keep: Path) -> None:
    target = keep / f"tree-{n}" / "openspec"
    if target.exists():
        return
    for part in (f"specs/c{n}", f"specs/c{n}x", f"changes/ch{n}"):
        source = root / "openspec" / part
        if source.exists():
            shutil.copytree(source, target / part)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m conformance.openspec.parity --trees N --seed S``."""
    parser = argparse.ArgumentParser(prog="python -m conformance.openspec.parity")
    parser.add_argument("--trees", type=int, default=1000, help="trees to generate (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    parser.add_argument("--batch", type=int, default=50, help="trees per CLI call (default 50)")
    parser.add_argument(
        "--cli",
        type=Path,
        default=Path("node_modules/.bin/openspec"),
        help="the official CLI (default node_modules/.bin/openspec)",
    )
    parser.add_argument("--keep", type=Path, help="copy disagreeing trees here")
    args = parser.parse_args(argv)
    if not args.cli.exists():
        sys.stderr.write(f"{args.cli} is missing: run `npm ci` (the official OpenSpec CLI)\n")
        return 2
    result = run_campaign(
        args.cli.resolve(), trees=args.trees, seed=args.seed, batch=args.batch, keep=args.keep
    )
    sys.stdout.write(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return 1 if result.disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
