"""Where the kit's own data lives, and the lines every command prints to say what judges what.

Every command says which kit runs (version and package folder) and which spec it judges: the
``openspec/`` of the repository it was given, or the kit's own (its Gherkin mirror, step
definitions, checks and mutants). Lines go to standard output before the results, or to standard
error when standard output is machine-readable (``--json``), so that JSON stays parseable.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from contracts import schema_dir

if TYPE_CHECKING:
    from collections.abc import Sequence

    from conformance.cli._output import Output

__all__ = [
    "KIT_NAME",
    "announce",
    "kit_line",
    "kit_schemas_dir",
    "kit_spec_line",
    "kit_version",
    "repo_spec_lines",
]

KIT_NAME = "srdh-conformance-kit"
"""The distribution name."""

_PACKAGE = Path(__file__).resolve().parents[1]


def kit_schemas_dir() -> Path:
    """The kit's contract schema folder (``contracts/_schemas`` installed, else ``schemas/``)."""
    return schema_dir()


def kit_version() -> str:
    """The installed kit version, or ``"0+unknown"`` when not installed as a distribution."""
    try:
        return version(KIT_NAME)
    except PackageNotFoundError:
        return "0+unknown"


def kit_line() -> str:
    """One line naming the running kit: ``kit: srdh-conformance-kit <version> (<package dir>)``.

    Commands print it so that a report or log says which kit judged (an installed wheel, or
    which checkout of an editable install).
    """
    return f"kit: {KIT_NAME} {kit_version()} ({_PACKAGE})"


def kit_spec_line() -> str:
    """``spec: the kit's own …`` for commands that judge with the kit's suite, not a repository's.

    Names the Gherkin mirror folder the suite runs and, in a source checkout, the ``openspec/``
    it mirrors.
    """
    from conformance.suite import features_dir  # noqa: PLC0415 - light, but not for every import

    features = features_dir().resolve()
    spec = _PACKAGE.parent / "openspec"
    mirrored = f", mirroring {spec}" if (spec / "specs").is_dir() else ""
    return f"spec: the kit's own (features {features}{mirrored})"


def repo_spec_lines(repo: Path) -> tuple[str, ...]:
    """``spec:`` and ``features:`` lines for a command that judges ``repo``'s ``openspec/``.

    The features line says which Gherkin mirror is read with the kit's step definitions: the
    repository's ``features/`` (and whether it equals the kit's copy, first difference named), or
    the kit's when the repository has none. Never raises for a difference: this only describes.
    """
    from conformance.verify import features_for, kit_sources  # noqa: PLC0415 - lazy
    from conformance.verify._sources import describe_copy  # noqa: PLC0415 - lazy

    root = Path(repo).resolve()
    kit = kit_sources()
    features = features_for(root)
    if features == kit.features.resolve():
        where = f"features: the kit's {features}"
        if features != (root / "features").resolve():
            where += " (the repository has no features/)"
    else:
        where = f"features: {features} ({describe_copy(features, kit.features)})"
    return (
        f"spec: {root / 'openspec'}",
        f"{where}; step definitions, checks and properties: the kit's ({_PACKAGE})",
    )


def announce(out: Output, lines: Sequence[str], *, machine: bool = False) -> None:
    """Print ``lines`` first: on standard output, or on standard error when ``machine``."""
    for line in lines:
        if machine:
            out.note(line)
        else:
            out.line(line)
