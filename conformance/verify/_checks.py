"""Verify steps that need only the contracts, the spec linter and the gate.

Decision (documented in ``docs/cli.md``): steps about *kit-internal data* — schemas and their
examples, the freeze lock, codegen drift — check the kit's own contract set (the schemas the kit
ships), whatever repository is verified; steps about *the spec* — lint, traceability, gate —
read the verified repository's ``openspec/``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from typing import TYPE_CHECKING

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from conformance.gate import (
    GateSetupError,
    default_plan_path,
    evaluate_gate,
    load_phase_plan,
    plan_coverage,
    read_repo_state,
)
from conformance.openspec import ParseError, lint_items, load_tree
from conformance.verify._outcome import Outcome, failed, not_available, passed
from contracts import (
    CONTRACTS,
    ContractError,
    is_valid_document,
    parse_document,
    unresolved_refs,
    validate_document,
)

if TYPE_CHECKING:
    from pathlib import Path

    from conformance.verify._outcome import VerifyContext

__all__ = [
    "check_module_tool",
    "gate_status",
    "schemas_and_examples",
    "spec_lint",
    "start_module_tool",
    "stop_module_tools",
]

_TOOL_TIMEOUT_S = 600


def spec_lint(ctx: VerifyContext) -> Outcome:
    """Lint ``<repo>/openspec`` (official rules, strict, plus the kit's)."""
    items = lint_items(ctx.repo, strict=True)
    issues = [issue for item in items for issue in item.issues]
    invalid = [item for item in items if not item.valid]
    detail = f"{len(items)} item(s), {len(issues)} issue(s)"
    if invalid:
        first = next(iter(invalid[0].issues), None)
        return failed(f"{detail}; first: {first}" if first else detail)
    return passed(detail)


def _example_files(root: Path, contract: str, kind: str) -> list[Path]:
    folder = root / "examples" / contract / kind
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".why.json"))


def _layer(path: Path) -> str:
    """The layer that rejects an invalid example, from its ``.why.json`` sidecar."""
    sidecar = path.with_name(f"{path.stem}.why.json")
    try:
        doc, _ = parse_document(sidecar)
    except ContractError:
        return ""
    return str(doc.get("layer", "")) if isinstance(doc, dict) else ""


def _example_problem(path: Path, contract: str, *, valid: bool) -> str | None:
    """Why the example at ``path`` does not behave as its folder says, or ``None``."""
    try:
        doc, _ = parse_document(path)
    except ContractError as exc:
        return str(exc)
    if not valid and _layer(path) != "guard":
        # an invalid example only has to be rejected: no need to explain every error
        return (
            None
            if not is_valid_document(doc, contract)
            else f"{path}: an invalid example is accepted"
        )
    # valid examples, and guard-layer invalid ones (rejected at run time by EvidenceGuard,
    # proven by the guard tests), must be contract-valid
    violations = validate_document(doc, contract)
    if violations:
        v = violations[0]
        return f"{path}: {v.pointer or '/'}: {v.message}"
    return None


def schemas_and_examples(ctx: VerifyContext) -> Outcome:
    """Every contract schema is valid 2020-12; examples behave as their folder says.

    ``valid/`` examples pass; ``invalid/`` ones fail, except those whose ``.why.json`` sidecar
    names layer ``guard`` (contract-valid, rejected by EvidenceGuard at run time), which must
    pass the contract. Each contract needs at least one valid and one invalid example. Every
    ``$ref`` of the set must resolve (else FAILED, naming schema file and pointer).
    """
    problems: list[str] = [str(problem) for problem in unresolved_refs(ctx.kit_schemas)]
    if problems:
        return failed(f"{len(problems)} unresolvable $ref(s), first: {problems[0]}", problems)
    counts = {"valid": 0, "invalid": 0}
    for name, info in CONTRACTS.items():
        try:
            Draft202012Validator.check_schema(info.schema)
        except SchemaError as exc:
            problems.append(f"{info.schema_path}: not a 2020-12 schema ({exc.message})")
            continue
        for kind in ("valid", "invalid"):
            files = _example_files(ctx.kit_schemas, name, kind)
            if not files:
                problems.append(f"{name}: no {kind} example")
            counts[kind] += len(files)
            found = (_example_problem(p, name, valid=kind == "valid") for p in files)
            problems += [p for p in found if p is not None]
    detail = (
        f"{len(CONTRACTS)} schemas, {counts['valid']} valid + {counts['invalid']} invalid examples"
    )
    if problems:
        return failed(f"{detail}; {len(problems)} problem(s), first: {problems[0]}", problems)
    return passed(detail)


def _tool_available(module: str) -> bool:
    return (
        importlib.util.find_spec(module.rsplit(".", 1)[0]) is not None
        and importlib.util.find_spec(module) is not None
    )


def start_module_tool(module: str, ctx: VerifyContext) -> None:
    """Start ``python -m <module> --check`` now, in the background, for its step to collect.

    ``srdh verify`` starts its tool subprocesses before the first step, so that they use the
    other core while the in-process steps run. Nothing is started when the module is missing.
    """
    if module in ctx.shared or not _tool_available(module):
        return
    ctx.shared[module] = subprocess.Popen(  # noqa: S603 - our interpreter, a module name we chose
        [sys.executable, "-m", module, "--check"],
        cwd=ctx.repo,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stop_module_tools(ctx: VerifyContext) -> None:
    """End every background tool process that is still running (a step never collected it)."""
    for value in ctx.shared.values():
        if isinstance(value, subprocess.Popen) and value.poll() is None:
            value.kill()
            value.communicate()


def check_module_tool(module: str, ctx: VerifyContext) -> Outcome:
    """Run ``python -m <module> --check`` (exit 0 = no drift) and report its last output line.

    Collects the process :func:`start_module_tool` started for ``ctx``, or starts it now.
    """
    if not _tool_available(module):
        return not_available(module)
    start_module_tool(module, ctx)
    process: subprocess.Popen[str] = ctx.shared.pop(module)
    try:
        output, _ = process.communicate(timeout=_TOOL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return failed(f"python -m {module} --check did not finish in {_TOOL_TIMEOUT_S} s")
    lines = [ln for ln in output.splitlines() if ln.strip()]
    last = lines[-1].strip() if lines else "(no output)"
    if process.returncode == 0:
        return passed(last)
    return failed(f"exit {process.returncode}: {last}")


def gate_status(ctx: VerifyContext) -> Outcome:
    """Check the phase plan gates every spec scenario, then evaluate the gate for the next stage.

    Every scenario of ``<repo>/openspec/specs`` must sit in a stage's ``gate_scenarios`` (before
    the cutover, and in every stage from 6B on), else FAILED naming the scenario and the plan
    file to edit (:func:`~conformance.gate.plan_coverage`). Then the gate for the next stage not
    yet committed; FAILED if it is refused.

    A refusal here means the repository already breaks the serial rule: changes archived out of
    order (OUT_OF_ORDER), or a change started before its predecessors (STARTED_OUT_OF_ORDER). An
    archived change that is not yet committed is simply the next stage, not a failure.
    """
    try:
        tree = load_tree(ctx.repo)
    except ParseError as exc:
        return failed(str(exc))
    scenarios = [
        s.name for spec in tree.specs.values() for r in spec.requirements for s in r.scenarios
    ]
    plan_file = default_plan_path()
    gaps = plan_coverage(load_phase_plan(), scenarios, str(plan_file))
    if gaps:
        return failed(f"{len(gaps)} phase-plan problem(s), first: {gaps[0]}", gaps)
    try:
        state = read_repo_state(ctx.repo)
    except GateSetupError as exc:
        return failed(str(exc))
    pending = [c for c in state.changes if not c.committed]
    if not pending:
        last = state.changes[-1].change.stage
        decision = evaluate_gate(state, last)
        verdict = "allowed" if decision.allowed else "refused"
        detail = f"all {len(state.changes)} stages committed ({verdict}); "
    else:
        decision = evaluate_gate(state, pending[0].change.stage)
        verdict = "allowed" if decision.allowed else "refused"
        detail = f"next stage {decision.stage} {verdict}; "
    detail += f"public entry {decision.public_entry}"
    if decision.reasons:
        detail += f"; {decision.reasons[0].message}"
        return failed(detail)
    return passed(detail)
