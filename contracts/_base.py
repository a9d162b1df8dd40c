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

import enum
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, model_validator

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["ContractModel"]

_BOOL_OR_FLOAT = (bool, float)


@dataclass(frozen=True, slots=True)
class _Shape:
    """What the two validators need to know about one model class, worked out once."""

    non_null_optionals: frozenset[str]
    """Names of the optional fields that must not be given an explicit ``null``."""
    scalar_fields: tuple[tuple[str, bool, bool], ...]
    """``(name, has an integer Literal or enum, accepts Any)`` per field, in order."""
    rule: Callable[[Any], str | None] | None
    """The class's restored schema rule (:mod:`contracts._schema_rules`), if it has one."""


_SHAPES: dict[type[BaseModel], _Shape] = {}


def _accepts_any(annotation: object) -> bool:
    """Return True when ``annotation`` is ``Any`` or a union containing ``Any``."""
    if annotation is Any:
        return True
    return any(arg is Any for arg in typing.get_args(annotation))


def _has_int_literal(annotation: object) -> bool:
    """Return True when ``annotation`` is (or contains) a ``Literal`` or enum of integers."""
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return any(isinstance(member.value, int) for member in annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return any(
            isinstance(arg, int) and not isinstance(arg, bool)
            for arg in typing.get_args(annotation)
        )
    return any(_has_int_literal(arg) for arg in typing.get_args(annotation))


class ContractModel(BaseModel):
    """Base of every generated contract model; adds the rules the generator drops."""

    @classmethod
    def _shape(cls) -> _Shape:
        """The class's :class:`_Shape` (cached per class: validation runs per nested instance)."""
        shape = _SHAPES.get(cls)
        if shape is None:
            from contracts._schema_rules import schema_rule_of  # noqa: PLC0415 - import cycle

            fields = cls.model_fields
            shape = _Shape(
                non_null_optionals=frozenset(
                    name
                    for name, field in fields.items()
                    if not field.is_required() and not _accepts_any(field.annotation)
                ),
                scalar_fields=tuple(
                    (name, _has_int_literal(field.annotation), _accepts_any(field.annotation))
                    for name, field in fields.items()
                ),
                rule=schema_rule_of(cls),
            )
            _SHAPES[cls] = shape
        return shape

    @model_validator(mode="before")
    @classmethod
    def _json_schema_scalars(cls, data: Any) -> Any:  # noqa: ANN401 - raw input of any shape
        """Apply JSON Schema's scalar rules where Pydantic's differ.

        * ``null`` for an optional property the schema types without ``null`` is rejected;
        * an integral float (``1.0``) is an ``integer`` in JSON Schema: it becomes an ``int``
          (the contract set has no ``number`` fields; "any JSON" fields are left alone);
        * ``true``/``false`` never equal ``1``/``0`` (Pydantic's ``Literal[1, 2]`` would accept).
        """
        if not isinstance(data, dict):
            return data
        shape = cls._shape()
        for name in shape.non_null_optionals:
            if name in data and data[name] is None:
                msg = f"{name}: null is not allowed (omit the property instead)"
                raise ValueError(msg)
        for value in data.values():
            if isinstance(value, _BOOL_OR_FLOAT):
                break
        else:
            return data  # no boolean, no float: nothing below applies
        converted = None
        for name, int_literal, accepts_any in shape.scalar_fields:
            value = data.get(name)
            if isinstance(value, bool) and int_literal:
                msg = f"{name}: a boolean is not one of the allowed numbers"
                raise ValueError(msg)
            if isinstance(value, float) and value.is_integer() and not accepts_any:
                converted = converted if converted is not None else dict(data)
                converted[name] = int(value)
        return data if converted is None else converted

    @model_validator(mode="after")
    def _apply_schema_rules(self) -> ContractModel:
        """Apply the ``if``/``then`` and ``uniqueItems`` rules of this model's schema."""
        rule = self._shape().rule
        problem = None if rule is None else rule(self)
        if problem is not None:
            raise ValueError(problem)
        return self
