"""``srdh spec lint`` and ``srdh spec show``: the OpenSpec tree of a repository."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from conformance.cli._errors import EXIT_FAILED, require_openspec
from conformance.cli._output import Output, announce, kit_line

if TYPE_CHECKING:
    from conformance.openspec import Scenario, SpecTree

__all__ = ["spec_app", "tree_to_dict"]

spec_app = typer.Typer(name="spec", help="Lint or show the OpenSpec tree.", no_args_is_help=True)

_Repo = Annotated[Path, typer.Argument(help="Repository with openspec/.")]


@spec_app.command("lint")
def lint(
    repo: _Repo = Path(),
    archived_tasks: Annotated[  # noqa: FBT002 - a typer flag
        bool,
        typer.Option(
            "--archived-tasks",
            help="Also require every task of each archived change done (openspec validate "
            "--archived).",
        ),
    ] = False,
) -> None:
    """Lint REPO/openspec with the official OpenSpec rules (strict) plus the kit's own.

    Archived changes are history: as the official CLI's validate --all, the lint never checks
    them against today's specs (only the kit's KIT_* rules apply to them).
    Prints one line per issue (path:line: LEVEL CODE message). Exit 1 if any item is invalid.
    """
    out = Output()
    from conformance.openspec import lint_items  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    require_openspec(repo)
    announce(out, (kit_line(), f"spec: {repo.resolve() / 'openspec'}"))
    items = lint_items(repo, strict=True, archived_tasks=archived_tasks)
    issues = [issue for item in items for issue in item.issues]
    for issue in issues:
        out.line(str(issue))
    invalid = [item for item in items if not item.valid]
    out.line(f"{len(items)} item(s), {len(invalid)} invalid, {len(issues)} issue(s)")
    if invalid:
        raise typer.Exit(EXIT_FAILED)


def tree_to_dict(tree: SpecTree) -> dict[str, object]:
    """The spec tree as JSON-ready data.

    Shape: ``{specs{<capability>{title, purpose, path, requirements[{id, name, level, line,
    scenarios[{id, name, line, steps[{keyword, text}]}]}]}}, changes[{id, archived,
    archive_date, path}]}``.
    """
    return {
        "specs": {
            cap: {
                "title": doc.title,
                "purpose": doc.purpose,
                "path": str(doc.path),
                "requirements": [
                    {
                        "id": req.id,
                        "name": req.name,
                        "level": req.level,
                        "line": req.location.line,
                        "scenarios": [
                            {
                                "id": sc.id,
                                "name": sc.name,
                                "line": sc.location.line,
                                "steps": [
                                    {"keyword": st.keyword, "text": st.text} for st in sc.steps
                                ],
                            }
                            for sc in req.scenarios
                        ],
                    }
                    for req in doc.requirements
                ],
            }
            for cap, doc in tree.specs.items()
        },
        "changes": [
            {
                "id": ch.id,
                "archived": ch.archived,
                "archive_date": ch.archive_date,
                "path": str(ch.path),
            }
            for ch in tree.changes
        ],
    }


@spec_app.command("show")
def show(
    repo: _Repo = Path(),
    *,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tree as JSON.")] = False,
    preview: Annotated[
        bool,
        typer.Option(
            "--preview",
            help="Show the spec as it will be once the active changes are archived.",
        ),
    ] = False,
) -> None:
    """Show the requirements and scenarios of REPO/openspec (ids, levels, names).

    With --preview, the active (unarchived) changes' deltas are merged into the main spec as
    `openspec archive` will merge them, so a scenario still being written is listed (its
    origin column names the change).
    """
    out = Output()
    from conformance.openspec import load_tree, preview_requirements  # noqa: PLC0415 - lazy

    require_openspec(repo)
    announce(out, (kit_line(), f"spec: {repo.resolve() / 'openspec'}"), machine=as_json)
    tree = load_tree(repo)
    if as_json:
        document = tree_to_dict(tree)
        if preview:
            document["preview"] = {
                cap: [
                    {"id": r.id, "name": r.name, "scenarios": [s.id for s in r.scenarios]}
                    for r in reqs
                ]
                for cap, reqs in preview_requirements(tree).items()
            }
        out.json(document)
        return
    if preview:
        main = {s.id for doc in tree.specs.values() for r in doc.requirements for s in r.scenarios}
        rows = [
            [req.id, req.level or "-", sc.id, "main spec" if sc.id in main else _origin(sc)]
            for reqs in preview_requirements(tree).values()
            for req in reqs
            for sc in req.scenarios
        ]
        headers = ["requirement", "level", "scenario", "from"]
        out.table("requirements and scenarios (preview)", headers, rows)
    else:
        rows = [
            [req.id, req.level or "-", sc.id]
            for doc in tree.specs.values()
            for req in doc.requirements
            for sc in req.scenarios
        ]
        out.table("requirements and scenarios", ["requirement", "level", "scenario"], rows)
    for change in tree.changes:
        state = f"archived {change.archive_date}" if change.archived else "active"
        out.line(f"change {change.id}: {state}")


def _origin(scenario: Scenario) -> str:
    """The change folder a previewed scenario comes from (``openspec/changes/<id>``)."""
    parts = scenario.location.path.parts
    index = parts.index("changes") if "changes" in parts else -1
    return f"change {parts[index + 1]}" if 0 <= index < len(parts) - 1 else "change"
