"""The base class of every generated contract model.

The generated models (``contracts/_generated``) derive from :class:`ContractModel`, so two rules
the code generator cannot express hold in every model, wherever it is nested:

* an optional property that the schema does not allow to be ``null`` rejects an explicit ``null``
  (the generator types it ``X | None = None``);
* the schema's ``if``/``then``/``else`` and ``uniqueItems`` rules, which the generator drops, are
  re-applied by the hand-written rules in :mod:`contracts._schema_rules`.

Together they make ``Model.model_validate(doc)`` give the JSON Schema's verdict (requirement
"Contract set is frozen": schemas and models agree).
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, model_validator

__all__ = ["ContractModel"]

_NON_NULL_OPTIONALS: dict[type[BaseModel], frozenset[str]] = {}


def _accepts_any(annotation: object) -> bool:
    """Return True when ``annotation`` is ``Any`` or a union containing ``Any``."""
    if annotation is Any:
        return True
    return any(arg is Any for arg in typing.get_args(annotation))


class ContractModel(BaseModel):
    """Base of every generated contract model; adds the rules the generator drops."""

    @classmethod
    def _non_null_optionals(cls) -> frozenset[str]:
        """Names of the optional fields that must not be given an explicit ``null`` (cached)."""
        cached = _NON_NULL_OPTIONALS.get(cls)
        if cached is None:
            cached = frozenset(
                name
                for name, field in cls.model_fields.items()
                if not field.is_required() and not _accepts_any(field.annotation)
            )
            _NON_NULL_OPTIONALS[cls] = cached
        return cached

    @model_validator(mode="before")
    @classmethod
    def _reject_explicit_null(cls, data: Any) -> Any:  # noqa: ANN401 - raw input of any shape
        """Reject ``null`` for an optional property the schema types without ``null``."""
        if isinstance(data, dict):
            for name in cls._non_null_optionals():
                if name in data and data[name] is None:
                    msg = f"{name}: null is not allowed (omit the property instead)"
                    raise ValueError(msg)
        return data

    @model_validator(mode="after")
    def _apply_schema_rules(self) -> ContractModel:
        """Apply the ``if``/``then`` and ``uniqueItems`` rules of this model's schema."""
        from contracts._schema_rules import check_schema_rules  # noqa: PLC0415 - avoids an import cycle

        problem = check_schema_rules(self)
        if problem is not None:
            raise ValueError(problem)
        return self
