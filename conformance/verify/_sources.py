"""Which copy of each input ``srdh verify`` judges: the repository's or the installed kit's.

``srdh verify REPO`` judges REPO's spec (``openspec/``) with the installed kit's contract schemas,
Gherkin features, step definitions, checks, properties and mutants. When REPO is not the kit's own
source checkout but carries its own ``schemas/`` or ``features/``, using them beside the kit's
steps and properties (written for the kit's copies) would mix two sources silently. So:

- REPO is the checkout the kit runs from (an editable install): one source, nothing to compare.
- REPO has ``schemas/`` / ``features/`` byte-identical to the kit's: one source (the copies agree).
- REPO has none of them: the kit's copies are used, and the plan says so.
- REPO's copy differs from the kit's: :class:`MixedSourcesError`, naming the first difference and
  how to verify with one source (install the kit from REPO).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = [
    "KitSources",
    "MixedSourcesError",
    "SourcePlan",
    "describe_copy",
    "features_for",
    "kit_sources",
    "plan_sources",
]

_PACKAGE = Path(__file__).resolve().parents[1]
_SKIPPED = ("__pycache__",)


class MixedSourcesError(Exception):
    """REPO's schemas or features differ from the installed kit's; ``str()`` is one line."""


@dataclass(frozen=True, slots=True)
class KitSources:
    """Where the running kit's code and data live.

    Attributes:
        version: the installed distribution's version (``0+unknown`` when not installed).
        package: the ``conformance`` package folder that is running.
        checkout: the source checkout the kit runs from (editable install), else ``None``.
        schemas: the contract schema folder the kit validates with.
        features: the Gherkin feature folder the kit's suite runs.
    """

    version: str
    package: Path
    checkout: Path | None
    schemas: Path
    features: Path


@dataclass(frozen=True, slots=True)
class SourcePlan:
    """What one ``srdh verify`` judges, each input with its origin.

    Attributes:
        repo: the verified repository (resolved).
        kit: the running kit.
        lines: one line per input (kit, spec, schemas, features), for the command's output.
    """

    repo: Path
    kit: KitSources
    lines: tuple[str, ...]


def kit_sources() -> KitSources:
    """Describe the running kit: version, package folder, checkout, schemas and features.

    Raises:
        conformance.suite.CatalogueError: the kit has no feature files (a broken install).
    """
    from conformance.suite import features_dir  # noqa: PLC0415 - light, but not for every import
    from contracts import schema_dir  # noqa: PLC0415 - light, but not for every import

    try:
        installed = version("srdh-conformance-kit")
    except PackageNotFoundError:
        installed = "0+unknown"
    root = _PACKAGE.parent
    is_checkout = (root / "pyproject.toml").is_file() and (root / "openspec").is_dir()
    return KitSources(
        version=installed,
        package=_PACKAGE,
        checkout=root if is_checkout else None,
        schemas=schema_dir().resolve(),
        features=features_dir().resolve(),
    )


def features_for(repo: Path) -> Path:
    """The Gherkin folder that mirrors ``repo``'s spec: ``repo/features``, else the kit's."""
    from conformance.suite import features_dir  # noqa: PLC0415 - light, but not for every import

    mine = Path(repo).resolve() / "features"
    return mine if mine.is_dir() else features_dir().resolve()


def _digests(folder: Path) -> dict[str, str]:
    """Relative POSIX path -> SHA-256 of each file under ``folder`` (no caches, no dotfiles)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or any(
            part.startswith(".") or part in _SKIPPED for part in relative.parts
        ):
            continue
        found[relative.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _first_difference(mine: dict[str, str], kits: dict[str, str]) -> str | None:
    for name in sorted(mine.keys() | kits.keys()):
        if name not in kits:
            return f"{name} is only in the repository"
        if name not in mine:
            return f"{name} is only in the kit"
        if mine[name] != kits[name]:
            return f"{name} differs"
    return None


def describe_copy(mine: Path, kits: Path) -> str:
    """Say whether folder ``mine`` equals the kit's copy ``kits``, in words.

    ``identical to the kit's <kits>`` or ``differs from the kit's <kits>: <first difference>``.
    """
    difference = _first_difference(_digests(mine), _digests(kits))
    if difference is None:
        return f"identical to the kit's {kits}"
    return f"differs from the kit's {kits}: {difference}"


def plan_sources(repo: Path, kit: KitSources | None = None) -> SourcePlan:
    """Decide what ``srdh verify`` on ``repo`` judges; see the module docstring.

    Raises:
        MixedSourcesError: ``repo`` is not the kit's checkout and its ``schemas/`` or
            ``features/`` differ from the kit's copies.
    """
    kit = kit if kit is not None else kit_sources()
    root = Path(repo).resolve()
    where = f"checkout {kit.checkout}" if kit.checkout is not None else f"package {kit.package}"
    lines = [f"kit: srdh-conformance-kit {kit.version} ({where})", f"spec: {root / 'openspec'}"]
    if kit.checkout is not None and kit.checkout.resolve() == root:
        lines.append("schemas, features, steps, properties: this checkout's (the kit runs from it)")
        return SourcePlan(root, kit, tuple(lines))
    for name, kit_folder in (("schemas", kit.schemas), ("features", kit.features)):
        mine = root / name
        if not mine.is_dir():
            lines.append(f"{name}: the kit's {kit_folder} (the repository has no {name}/)")
            continue
        difference = _first_difference(_digests(mine), _digests(kit_folder))
        if difference is not None:
            message = (
                f"{mine} is not the installed kit's copy ({kit_folder}): {name}/{difference}. "
                "The kit's steps, checks and properties are written for its own copy, so "
                "verifying would mix two sources. Install the kit from this checkout "
                f"(python -m pip install -e {root}) and run its srdh, or make the copies equal"
            )
            raise MixedSourcesError(message)
        lines.append(f"{name}: {mine} (identical to the kit's {kit_folder})")
    return SourcePlan(root, kit, tuple(lines))
