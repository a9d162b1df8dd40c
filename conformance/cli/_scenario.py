"""``srdh scenario new ID --stage STAGE``: scaffold a spec scenario's mirror and registries."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from conformance.cli._errors import require_openspec
from conformance.cli._output import Output

__all__ = ["scenario_app"]

scenario_app = typer.Typer(
    name="scenario", help="Scaffold a spec scenario in the kit.", no_args_is_help=True
)


@scenario_app.command("new")
def new(
    scenario_id: Annotated[str, typer.Argument(help="The spec scenario's id (kebab slug).")],
    stage: Annotated[
        str, typer.Option("--stage", help="The stage that implements it (0 1 … 6A 6B 7 8 9).")
    ],
    repo: Annotated[Path, typer.Option("--repo", help="The kit's repository.")] = Path(),
    capability: Annotated[
        str, typer.Option("--capability", help="The IUT capability the scenario needs.")
    ] = "DIAGNOSIS",
) -> None:
    """Write the Gherkin mirror, the When registry line and the phase-plan entries of a scenario.

    The scenario may be in openspec/specs/ or in an active change (not archived yet). Prints each
    file written, then what is left to do by hand, each with its file (the Then check and its
    rule, the Given steps, the strategy and property, the fixtures).
    """
    from conformance.scaffold import new_scenario  # noqa: PLC0415 - lazy: `srdh --help` stays fast

    out = Output()
    require_openspec(repo)
    result = new_scenario(repo, scenario_id, stage=stage.upper(), capability=capability)
    for path in result.written:
        out.line(f"wrote {path}")
    out.line("left to do:")
    for line in result.todo:
        out.line(f"  - {line}")
