"""Schema diff: classify changes between two versions of the contract schemas.

``srdh diff OLD NEW`` is built on :func:`diff_paths`. Each change gets a stable rule id
(``SD001 property-removed`` … ``SD999 unclassified``) and is breaking or compatible according to
the contract's direction (READ: tightening breaks producers; EMIT: loosening breaks consumers;
BOTH: either). A change the differ cannot classify is breaking. Serves the versioning convention
of ``docs/contracts.md``: a breaking change bumps ``v1`` → ``v2`` (``srdh contract bump NAME``), a
compatible one is a minor change recorded in the freeze lock; the bump itself is
``SD025 version-bumped`` (neutral), and each change says its required action
(:attr:`SchemaChange.action`).
"""

from conformance.schemadiff._change import SchemaChange
from conformance.schemadiff._diff import (
    SchemaDiffError,
    contract_name,
    diff_documents,
    diff_paths,
    diff_schemas,
    id_version,
)
from conformance.schemadiff._rules import RULES, Direction, Effect, Rule, rule

__all__ = [
    "RULES",
    "Direction",
    "Effect",
    "Rule",
    "SchemaChange",
    "SchemaDiffError",
    "contract_name",
    "diff_documents",
    "diff_paths",
    "diff_schemas",
    "id_version",
    "rule",
]
