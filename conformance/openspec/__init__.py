"""OpenSpec parser and linter of the SRDH conformance kit.

Reads canonical OpenSpec markdown (``openspec/specs/<capability>/spec.md``, changes and their
delta specs) into typed values, and lints a tree with the official ``openspec validate`` rules
(whose verdicts it reproduces) plus the kit's own: WHEN/THEN steps, unique ids, proposal.md.
"""

from conformance.openspec._lint import ItemReport, lint_items, lint_tree
from conformance.openspec._model import (
    ChangeDocument,
    DeltaDocument,
    DeltaSection,
    LintIssue,
    Location,
    ParseError,
    Rename,
    Requirement,
    Scenario,
    SpecDocument,
    SpecTree,
    Step,
)
from conformance.openspec._parser import parse_delta, parse_spec
from conformance.openspec._preview import preview_requirements
from conformance.openspec._slug import slugify
from conformance.openspec._tree import load_tree

__all__ = [
    "ChangeDocument",
    "DeltaDocument",
    "DeltaSection",
    "ItemReport",
    "LintIssue",
    "Location",
    "ParseError",
    "Rename",
    "Requirement",
    "Scenario",
    "SpecDocument",
    "SpecTree",
    "Step",
    "lint_items",
    "lint_tree",
    "load_tree",
    "parse_delta",
    "parse_spec",
    "preview_requirements",
    "slugify",
]
