"""Checks over the kit's stage-zero contract data (component registry, phase plan).

Requirements "Design contracts SHALL separate deterministic control from diagnosis reasoning" and
"Phase gates SHALL remain serial" are about the contracts themselves, not a Run.
"""

from __future__ import annotations

from typing import Any

from conformance.checks._result import CheckResult, Findings

__all__ = ["FORBIDDEN_HARNESS_RESPONSIBILITIES", "check_harness_ownership", "check_serial_cutover"]

FORBIDDEN_HARNESS_RESPONSIBILITIES = frozenset(
    {"PLANNING", "EXECUTOR", "COMPOSING", "WORKFLOW_ROUTING", "DIAGNOSIS_REASONING"}
)
"""Planner, Executor, Composer, workflow routing and diagnosis reasoning (the spec's THEN)."""


def check_harness_ownership(registry: dict[str, Any]) -> CheckResult:
    """Check no Harness entry of a ComponentRegistry owns a forbidden responsibility.

    The Harness must also list every one of them under ``never``, and the Diagnosis Agent alone
    authors reports.
    """
    found = Findings(
        "Harness holds no Planner/Executor/Composer/routing/reasoning responsibility",
        "R1.harness-holds-no-forbidden-responsibility",
    )
    components = {c.get("component"): c for c in registry.get("components", [])}
    harness = components.get("HARNESS")
    if not found.expect(harness is not None, "the registry has no HARNESS component"):
        return found.result()
    assert harness is not None  # noqa: S101 - narrowed by the expectation above
    owned = set(harness.get("owns", [])) & FORBIDDEN_HARNESS_RESPONSIBILITIES
    found.expect(not owned, f"HARNESS owns {sorted(owned)}")
    missing = FORBIDDEN_HARNESS_RESPONSIBILITIES - set(harness.get("never", []))
    found.expect(not missing, f"HARNESS does not declare {sorted(missing)} under never")
    authors = sorted(
        name for name, c in components.items() if "REPORT_AUTHORING" in c.get("owns", [])
    )
    found.expect(authors == ["DIAGNOSIS_AGENT"], f"report authors are {authors}")
    return found.result()


def check_serial_cutover(plan: dict[str, Any]) -> CheckResult:
    """Check a PhasePlan keeps the public Chat entry on the old path until stage 6B.

    Orders are 1..11 without gaps (serial); stages 4 and 5 and everything before 6B keep
    ``public_entry`` LEGACY; 6B is the first SINGLE_REACT stage and comes after stage 5, so it
    cannot start while the stage 5 Guards are not archived.
    """
    found = Findings("public Chat entry stays on the old path until 6B", "R10.serial-cutover")
    changes = sorted(plan.get("changes", []), key=lambda c: c.get("order", 0))
    orders = [c.get("order") for c in changes]
    found.expect(orders == list(range(1, 12)), f"change orders {orders} are not 1..11")
    by_stage = {c.get("stage"): c for c in changes}
    for stage in ("4", "5", "6B"):
        found.expect(stage in by_stage, f"the plan has no stage {stage}")
    if not {"4", "5", "6B"} <= by_stage.keys():
        return found.result()
    cutover = by_stage["6B"]["order"]
    found.expect(
        by_stage["4"]["order"] < by_stage["5"]["order"] < cutover,
        "stage 6B does not come after stages 4 and 5",
    )
    early = [
        c.get("stage")
        for c in changes
        if c["order"] < cutover and c.get("public_entry") != "LEGACY"
    ]
    found.expect(not early, f"stages {early} leave the legacy public entry before 6B")
    found.expect(
        by_stage["6B"].get("public_entry") == "SINGLE_REACT",
        "stage 6B does not cut the public entry over to SINGLE_REACT",
    )
    return found.result()
