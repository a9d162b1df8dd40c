"""The spec as it will read once the active changes are archived (a preview, nothing written).

``openspec archive`` merges a change's delta into the main spec: ADDED requirements are appended,
MODIFIED ones replace the requirement of the same name, REMOVED ones go, RENAMED ones change
name. :func:`preview_requirements` applies every active change's deltas that way, in change-id
order, so that ``srdh spec show --preview`` and ``srdh scenario new`` see a scenario the author
is still writing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from conformance.openspec._slug import slugify

if TYPE_CHECKING:
    from conformance.openspec._model import Requirement, SpecTree

__all__ = ["preview_requirements"]


def preview_requirements(tree: SpecTree) -> dict[str, tuple[Requirement, ...]]:
    """Capability -> its requirements after merging every active change's deltas."""
    merged: dict[str, list[Requirement]] = {
        capability: list(spec.requirements) for capability, spec in tree.specs.items()
    }
    for change in sorted(tree.active_changes, key=lambda c: c.id):
        for delta in change.deltas:
            requirements = merged.setdefault(delta.capability, [])
            for section in delta.sections:
                names = [r.name for r in requirements]
                if section.operation == "ADDED":
                    requirements.extend(section.requirements)
                elif section.operation == "MODIFIED":
                    for requirement in section.requirements:
                        if requirement.name in names:
                            requirements[names.index(requirement.name)] = requirement
                        else:
                            requirements.append(requirement)
                elif section.operation == "REMOVED":
                    requirements[:] = [r for r in requirements if r.name not in section.removed]
                else:
                    renames = {r.from_name: r.to_name for r in section.renames}
                    requirements[:] = [
                        replace(r, name=renames[r.name], id=slugify(renames[r.name]))
                        if r.name in renames
                        else r
                        for r in requirements
                    ]
    return {capability: tuple(reqs) for capability, reqs in merged.items()}
