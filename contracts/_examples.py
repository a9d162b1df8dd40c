"""The contract examples under ``schemas/examples/<contract>/{valid,invalid}/``.

Every invalid example ``<name>.json`` has a sidecar ``<name>.why.json`` saying which rule it breaks
and which layer rejects it (see ``schemas/examples/README.md``):
``{"rule", "layer": "schema"|"invariant"|"guard", "pointer", "note", "guard_code"?, "context"?}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from contracts._paths import schema_dir
from contracts._strict_json import load_json_file

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

__all__ = ["LAYERS", "Example", "iter_examples"]

LAYERS = ("schema", "invariant", "guard")
"""Who rejects an invalid example: the JSON Schema, the invariant layer, or a guard at run time."""


@dataclass(frozen=True)
class Example:
    """One example document.

    Attributes:
        contract: the contract stem (the folder name).
        path: the example file.
        valid: True for ``valid/``, False for ``invalid/``.
        document: the parsed JSON.
        rule, layer, pointer, note: from the sidecar (invalid examples only; else empty).
        guard_code: for ``layer == "guard"``, the EvidenceGuard violation code expected.
        context: for guard examples, what the guard needs (e.g. the Run's invocations).
    """

    contract: str
    path: Path
    valid: bool
    document: Any
    rule: str = ""
    layer: str = ""
    pointer: str = ""
    note: str = ""
    guard_code: str = ""
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """``<contract>/<valid|invalid>/<stem>`` (a readable test id)."""
        return f"{self.contract}/{'valid' if self.valid else 'invalid'}/{self.path.stem}"


def _read(path: Path) -> Any:  # noqa: ANN401 - any JSON value
    return load_json_file(path)


def iter_examples(root: Path | None = None) -> Iterator[Example]:
    """Yield every example under ``root`` (default ``<schemas>/examples``), sorted by path.

    Raises:
        FileNotFoundError: an invalid example has no ``.why.json`` sidecar.
    """
    base = root if root is not None else schema_dir() / "examples"
    for path in sorted(base.glob("*/*/*.json")):
        if path.name.endswith(".why.json"):
            continue
        contract, verdict = path.parent.parent.name, path.parent.name
        if verdict == "valid":
            yield Example(contract, path, valid=True, document=_read(path))
            continue
        why = _read(path.with_name(f"{path.stem}.why.json"))
        yield Example(
            contract,
            path,
            valid=False,
            document=_read(path),
            rule=why["rule"],
            layer=why["layer"],
            pointer=why["pointer"],
            note=why.get("note", ""),
            guard_code=why.get("guard_code", ""),
            context=why.get("context", {}),
        )
