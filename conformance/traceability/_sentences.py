"""Sentence-level traceability: every normative sentence of the spec -> rules -> mutants.

Definitions (issue 10 item 7; documented in ``docs/traceability.md``):

- A **normative sentence** is (a) one sentence of a requirement body (the text between the
  ``### Requirement:`` header and its first scenario, fenced code excluded), split after ``.``,
  ``!`` or ``?`` followed by white space (``e.g.``/``i.e.``/``etc.``/``vs.``/``cf.`` do not
  end a sentence; the full-width ``\u3002\uff01\uff1f`` always do) and at every list item;
  or (b) one THEN bullet of a scenario (an AND after a THEN is its own THEN sentence).
  Requirement and scenario headers are titles, not sentences.
- WHEN and GIVEN bullets (and the ANDs continuing them) are **conditions**: a rule may quote
  one (it then names what the rule presupposes), but a condition needs no check.
- The **RFC 2119 level** of a sentence is its strongest upper-case keyword (MUST, SHALL,
  REQUIRED -> MUST; SHOULD, RECOMMENDED -> SHOULD; MAY, OPTIONAL -> MAY); failing that a
  lower-case ``may`` makes it MAY (optional: issue 10 item 6); failing that it inherits the
  level of its requirement (a THEN states what its SHALL requirement mandates).
- Ids are stable and readable: ``<requirement-id>#<n>`` for the n-th body sentence,
  ``<requirement-id>/<scenario-id>#<n>`` for the n-th THEN of a scenario and
  ``<requirement-id>/<scenario-id>#when-<n>`` for its n-th condition (1-based, file order).
  Adding a scenario or a sentence at the end never renumbers another one.
- A rule fragment (``conformance.checks.RULES[…].sentences``) **matches** a sentence when, after
  dropping Markdown emphasis and code marks (``**``, ``__``, backticks, ``*``/``_`` at word
  edges) and collapsing white space on both sides, the fragment is a substring of the
  sentence. Each fragment must match exactly one sentence of the spec, of the rule's own
  requirement: no match is ``TRACE_DANGLING_FRAGMENT``, several ``TRACE_AMBIGUOUS_FRAGMENT``,
  one in another requirement ``TRACE_MISPLACED_FRAGMENT``; each names the rule.
- A MUST sentence that no rule matches is ``TRACE_SENTENCE_UNTESTED`` (a failure of
  ``srdh trace`` and ``srdh verify``); a SHOULD or MAY sentence with none is listed as a note.
  The rule registry is the single source: adding a fragment to a rule is what covers a sentence.

A rule covers a sentence when its check tests at least part of what the sentence requires; how
completely each clause is tested is measured by the mutant catalogue (one mutant per rule and
sentence), shown next to each rule here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from conformance.traceability._issues import TraceIssue

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from pathlib import Path

    from conformance.checks import Rule
    from conformance.openspec import Location, Requirement, Scenario

__all__ = [
    "SentenceKind",
    "SentenceRow",
    "SpecSentence",
    "map_sentences",
    "mutants_by_rule",
    "normalize_fragment",
    "sentence_level",
    "spec_sentences",
    "split_sentences",
]

SentenceKind = Literal["body", "then", "condition"]
"""Where a sentence comes from: a requirement body, a THEN bullet, or a WHEN/GIVEN condition."""

_KEYWORDS: Final = (
    ("MUST", "MUST"),
    ("SHALL", "MUST"),
    ("REQUIRED", "MUST"),
    ("SHOULD", "SHOULD"),
    ("RECOMMENDED", "SHOULD"),
    ("MAY", "MAY"),
    ("OPTIONAL", "MAY"),
)
_LOWER_MAY: Final = re.compile(r"\bmay\b")
_SENTENCE_END: Final = re.compile("(?<=[.!?])\\s+(?=\\S)|(?<=[\u3002\uff01\uff1f])")
_ABBREVIATION: Final = re.compile(r"(?:^|\s)(?:e\.g|i\.e|etc|vs|cf)\.$", re.IGNORECASE)
_LIST_ITEM: Final = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_MARKS: Final = re.compile(r"\*\*|__|`|(?<!\w)[*_]|[*_](?!\w)")
_LINK: Final = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SPACE: Final = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class SpecSentence:
    """One sentence of the spec.

    Attributes:
        id: stable id (see the module docstring), e.g. ``retry-…#1`` or ``retry-…/sc-…#1``.
        requirement_id: the requirement it belongs to.
        scenario_id: its scenario, ``""`` for a body sentence.
        kind: ``body``, ``then`` or ``condition``.
        level: ``MUST``, ``SHOULD`` or ``MAY`` (``""`` for a condition).
        keyword: the RFC 2119 word that set the level (``SHALL``, ``may`` …), ``""`` when
            inherited from the requirement.
        text: the sentence as written (white space collapsed).
        location: ``path:line`` of the line it starts on, relative to the repository.
    """

    id: str
    requirement_id: str
    scenario_id: str
    kind: SentenceKind
    level: str
    keyword: str
    text: str
    location: str

    @property
    def normative(self) -> bool:
        """Whether a check must test it (body and THEN sentences; not conditions)."""
        return self.kind != "condition"


@dataclass(frozen=True, slots=True)
class SentenceRow:
    """A sentence with the rules quoting it and, per rule, the mutants that break that rule."""

    sentence: SpecSentence
    rules: tuple[str, ...]
    mutants: tuple[str, ...]

    @property
    def tested(self) -> bool:
        """Whether at least one rule (hence one check) tests the sentence."""
        return bool(self.rules)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready dict.

        Keys: id, requirement_id, scenario_id, kind, level, keyword, text, location, rules,
        mutants, tested.
        """
        s = self.sentence
        return {
            "id": s.id,
            "requirement_id": s.requirement_id,
            "scenario_id": s.scenario_id,
            "kind": s.kind,
            "level": s.level,
            "keyword": s.keyword,
            "text": s.text,
            "location": s.location,
            "rules": list(self.rules),
            "mutants": list(self.mutants),
            "tested": self.tested,
        }


def normalize_fragment(text: str) -> str:
    """Drop Markdown emphasis/code marks and links' targets; collapse white space."""
    return _SPACE.sub(" ", _MARKS.sub("", _LINK.sub(r"\1", text))).strip()


def split_sentences(body: str) -> list[str]:
    """Split a requirement body into sentences (list items always start a new one)."""
    pieces: list[str] = []
    paragraph: list[str] = []
    for line in body.split("\n"):
        if _LIST_ITEM.match(line) and paragraph:
            pieces.append(" ".join(paragraph))
            paragraph = []
        if line.strip():
            paragraph.append(_LIST_ITEM.sub("", line).strip())
    if paragraph:
        pieces.append(" ".join(paragraph))
    sentences: list[str] = []
    for piece in pieces:
        current = ""
        start = 0
        for match in _SENTENCE_END.finditer(piece):
            candidate = piece[start : match.start()]
            current += candidate
            start = match.end()
            if _ABBREVIATION.search(current):
                current += piece[match.start() : match.end()]
                continue
            sentences.append(_SPACE.sub(" ", current).strip())
            current = ""
        current += piece[start:]
        if current.strip():
            sentences.append(_SPACE.sub(" ", current).strip())
    return [s for s in sentences if s]


def sentence_level(text: str, inherited: str) -> tuple[str, str]:
    """Return ``(level, keyword)`` of ``text`` under the rule of the module docstring."""
    best: tuple[int, str, str] | None = None
    order = {"MUST": 0, "SHOULD": 1, "MAY": 2}
    for word, level in _KEYWORDS:
        if re.search(rf"\b{word}\b", text) and (best is None or order[level] < best[0]):
            best = (order[level], level, word)
    if best is not None:
        return best[1], best[2]
    if _LOWER_MAY.search(text):
        return "MAY", "may"
    return inherited, ""


def _relative(location: Location, repo: Path) -> tuple[str, list[str]]:
    path = location.path
    try:
        shown = path.resolve().relative_to(repo).as_posix()
    except ValueError:
        shown = path.as_posix()
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        lines = []
    return shown, lines


def _line_of(text: str, lines: list[str], start: int) -> int:
    """The 1-based line at or after ``start`` where ``text`` begins (``start`` if not found)."""
    head = normalize_fragment(text)[:30]
    for n in range(max(start, 1), len(lines) + 1):
        if head and head in normalize_fragment(lines[n - 1]):
            return n
    return start


def _scenario_sentences(
    requirement: Requirement, scenario: Scenario, inherited: str, path: str
) -> list[SpecSentence]:
    found: list[SpecSentence] = []
    group = "condition"
    thens = conditions = 0
    for step in scenario.steps:
        if step.keyword != "AND":
            group = "then" if step.keyword == "THEN" else "condition"
        text = _SPACE.sub(" ", step.text).strip()
        where = f"{path}:{step.location.line}"
        prefix = f"{requirement.id}/{scenario.id}#"
        if group == "then":
            thens += 1
            level, keyword = sentence_level(text, inherited)
            found.append(
                SpecSentence(
                    f"{prefix}{thens}",
                    requirement.id,
                    scenario.id,
                    "then",
                    level,
                    keyword,
                    text,
                    where,
                )
            )
        else:
            conditions += 1
            found.append(
                SpecSentence(
                    f"{prefix}when-{conditions}",
                    requirement.id,
                    scenario.id,
                    "condition",
                    "",
                    "",
                    text,
                    where,
                )
            )
    return found


def spec_sentences(
    requirements: Iterable[Requirement], repo: Path, level_of: Mapping[str, str]
) -> list[SpecSentence]:
    """Return every sentence of ``requirements`` (body, THEN, condition), in spec order.

    ``level_of`` maps a requirement id to its normalized level (MUST/SHOULD/MAY), inherited by
    sentences without an RFC 2119 keyword.
    """
    sentences: list[SpecSentence] = []
    for requirement in requirements:
        inherited = level_of.get(requirement.id, "MUST")
        path, lines = _relative(requirement.location, repo)
        line = requirement.location.line
        for n, text in enumerate(split_sentences(requirement.text), start=1):
            line = _line_of(text, lines, line)
            level, keyword = sentence_level(text, inherited)
            sentences.append(
                SpecSentence(
                    f"{requirement.id}#{n}",
                    requirement.id,
                    "",
                    "body",
                    level,
                    keyword,
                    text,
                    f"{path}:{line}",
                )
            )
        for scenario in requirement.scenarios:
            sentences.extend(_scenario_sentences(requirement, scenario, inherited, path))
    return sentences


def mutants_by_rule() -> dict[str, tuple[str, ...]]:
    """Return rule id -> names of the catalogue's mutants that break it (IUT, then contract).

    Reads :mod:`reference_harness.mutants` when it is installed (``{}`` otherwise): the
    catalogue is data here, no mutant is run.
    """
    try:
        from reference_harness.mutants import CONTRACT_MUTANTS, MUTANTS  # noqa: PLC0415
    except ImportError:  # pragma: no cover - the kit without its reference harness
        return {}
    found: dict[str, list[str]] = {}
    for name, spec in MUTANTS.items():
        found.setdefault(spec.rule_id, []).append(name)
    for name, contract in CONTRACT_MUTANTS.items():
        found.setdefault(contract.rule_id, []).append(name)
    return {rule_id: tuple(names) for rule_id, names in found.items()}


def _issue(code: str, message: str, where: str, scenario_id: str = "") -> TraceIssue:
    return TraceIssue(code, message, where, scenario_id)


def _cover(
    sentences: Sequence[SpecSentence], rules: Mapping[str, Rule], registry: str
) -> tuple[dict[str, list[str]], list[TraceIssue]]:
    """Return sentence id -> ids of the rules quoting it, and every fragment issue."""
    normalized = [(s, normalize_fragment(s.text)) for s in sentences]
    requirement_ids = {s.requirement_id for s in sentences}
    covering: dict[str, list[str]] = {s.id: [] for s in sentences}
    issues: list[TraceIssue] = []
    for rule in rules.values():
        if rule.requirement_id is None or rule.requirement_id not in requirement_ids:
            continue
        for fragment in rule.sentences:
            wanted = normalize_fragment(fragment)
            hits = [s for s, text in normalized if wanted and wanted in text]
            if not hits:
                issues.append(
                    _issue(
                        "TRACE_DANGLING_FRAGMENT",
                        f"rule {rule.id} quotes {fragment!r}, found in no sentence of the spec",
                        registry,
                    )
                )
            elif len(hits) > 1:
                issues.append(
                    _issue(
                        "TRACE_AMBIGUOUS_FRAGMENT",
                        f"rule {rule.id} quotes {fragment!r}, found in "
                        f"{len(hits)} sentences: {', '.join(h.id for h in hits)}",
                        registry,
                    )
                )
            elif hits[0].requirement_id != rule.requirement_id:
                issues.append(
                    _issue(
                        "TRACE_MISPLACED_FRAGMENT",
                        f"rule {rule.id} quotes {fragment!r} of {hits[0].id}, outside its "
                        f"requirement {rule.requirement_id}",
                        registry,
                    )
                )
            elif rule.id not in covering[hits[0].id]:
                covering[hits[0].id].append(rule.id)
    return covering, issues


def map_sentences(
    sentences: Sequence[SpecSentence],
    rules: Mapping[str, Rule],
    mutants: Mapping[str, tuple[str, ...]],
    registry: str = "conformance/checks/_rules.py",
) -> tuple[list[SentenceRow], list[TraceIssue], list[str]]:
    """Map each rule fragment to its one sentence; return rows, issues and notes.

    Only rules of requirements present in ``sentences`` are read (the registry describes the
    SRDH spec; a repository with another spec is not judged by it); ``R0`` protocol rules quote
    no sentence.
    """
    covering, issues = _cover(sentences, rules, registry)
    rows: list[SentenceRow] = []
    notes: list[str] = []
    for sentence in sentences:
        rule_ids = tuple(covering[sentence.id])
        killers = tuple(m for r in rule_ids for m in mutants.get(r, ()))
        rows.append(SentenceRow(sentence, rule_ids, tuple(dict.fromkeys(killers))))
        if not sentence.normative or rule_ids:
            continue
        if sentence.level == "MUST":
            issues.append(
                _issue(
                    "TRACE_SENTENCE_UNTESTED",
                    f"{sentence.id} is a MUST sentence and no check rule tests it: "
                    f"{sentence.text!r} (quote it in a Rule of {registry})",
                    sentence.location,
                    sentence.scenario_id,
                )
            )
        else:
            notes.append(
                f"{sentence.id}: a {sentence.level} sentence no check rule tests "
                f"({sentence.text!r})"
            )
    return rows, issues, notes
