"""Mutants of the wrong-case and bounds kinds a third red team's faulty harnesses kept conformant.

Each is the smallest wrong Harness of one kind (docs/decisions/wrong-case-and-bounds-rows.md,
"Mutants"), named by the sentence it breaks, with the rule id (:mod:`conformance.checks`
registry) whose failure must kill it. Added to :data:`reference_harness.mutants.MUTANTS` by the
catalogue.
"""

from __future__ import annotations

from typing import Final

from reference_harness.mutants._bounds_parts import (
    exclusive_argument_bounds,
    exclusive_text_bounds,
    java_string_text,
    json_intent_upper_cased,
    member_named_draft,
    member_named_verdict,
    mixed_citation_forgiven,
    refusing_texts,
    scope_members_only,
    utf16_argument_lengths,
)
from reference_harness.mutants._evidence_parts import dropping
from reference_harness.mutants._iut import MutantSpec, Patch

__all__ = ["BOUNDS_SPECS"]

_R1 = "design-contracts-shall-separate-deterministic-control-from-diagnosis-reasoning"
_R3 = "invocation-status-and-evidence-status-shall-be-independent"
_R4 = "diagnosis-draft-shall-expose-typed-report-structure"
_R9 = "retry-attempts-shall-be-owned-by-harness"
_RELEASE = "reference_harness._release"

BOUNDS_SPECS: Final = (
    MutantSpec(
        "router_json_intent_upper_cased",
        _R9,
        "an invalid Router answer is an INVALID_SCHEMA attempt under the Harness's retry policy: "
        'the JSON answer {"intent": "diagnosis"} is read upper-cased and taken as DIAGNOSIS',
        rule_id="R9.model-call-outcome",
        patches=(Patch("reference_harness._harness", "_route_check", json_intent_upper_cased),),
    ),
    MutantSpec(
        "verdict_member_name_accepted",
        _R9,
        "an invalid SemanticGuard answer is an INVALID_SCHEMA attempt: the verdict 'Supported' "
        "(the enum member's name) is accepted as SUPPORTED",
        rule_id="R9.model-call-outcome",
        patches=(Patch(_RELEASE, "parse_verdict", member_named_verdict),),
    ),
    MutantSpec(
        "draft_member_names_accepted",
        _R4,
        "a fixed Analysis kind (and the closed confidence): the draft's closed values are read by "
        "enum member name before validation, so 'Inference' and 'Medium' pass",
        rule_id="R4.analysis-structure",
        patches=(Patch(_RELEASE, "check_draft", member_named_draft),),
    ),
    MutantSpec(
        "argument_bounds_exclusive",
        _R3,
        "INVALID_ARGUMENTS is for arguments that give no query scope: every bound of the "
        "QueryScope grammar is checked exclusively, so a target of 256 characters, a query of "
        "1,024, an empty query or a one-instant time range is refused",
        rule_id="R3.malformed-arguments-error",
        patches=(
            Patch("reference_harness._agent_loop", "valid_arguments", exclusive_argument_bounds),
        ),
    ),
    MutantSpec(
        "argument_lengths_in_utf16_units",
        _R3,
        "INVALID_ARGUMENTS is for arguments that give no query scope: the target and the query "
        "are measured in UTF-16 code units (Java String.length()), so a target of 256 astral "
        "characters or a query of 1,024 is refused though the grammar allows them",
        rule_id="R3.malformed-arguments-error",
        patches=(
            Patch("reference_harness._agent_loop", "valid_arguments", utf16_argument_lengths),
        ),
    ),
    MutantSpec(
        "invocation_arguments_normalized",
        _R3,
        "the ToolInvocation's arguments are kept as presented so that INVALID_ARGUMENTS can be "
        "recorded: a call's extra argument member is dropped from the recorded invocation",
        rule_id="R3.malformed-arguments-error",
        patches=(Patch("reference_harness._agent_loop", "recorded_arguments", scope_members_only),),
    ),
    MutantSpec(
        "draft_texts_checked_as_java_strings",
        _R1,
        "the Diagnosis Agent's draft is released as written: its texts are checked as Java "
        "strings (@NotBlank @Size(max = 4000)), so 4,000 astral characters (8,000 UTF-16 code "
        "units) or a whitespace-only statement are rejected SCHEMA_INVALID",
        rule_id="R1.released-is-agent-authored",
        patches=(Patch(_RELEASE, "check_draft", refusing_texts(java_string_text)),),
    ),
    MutantSpec(
        "draft_text_bounds_exclusive",
        _R1,
        "the Diagnosis Agent's draft is released as written: its text bounds are checked "
        "exclusively (1 < length < 4000), so a summary of 4,000 characters or of 1 is rejected",
        rule_id="R1.released-is-agent-authored",
        patches=(Patch(_RELEASE, "check_draft", refusing_texts(exclusive_text_bounds)),),
    ),
    MutantSpec(
        "mixed_no_evidence_citation_accepted",
        _R3,
        "a cited NO_EVIDENCE result makes the Analysis kind NEGATIVE_OBSERVATION: an OBSERVATION "
        "citing it beside an EVIDENCE_FOUND result is accepted",
        rule_id="R3.no-evidence-citation",
        patches=(Patch(_RELEASE, "check_draft", dropping(mixed_citation_forgiven)),),
    ),
)
"""The wrong-case and bounds mutants, in the order of the decision note's kinds."""
