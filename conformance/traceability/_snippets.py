"""A pytest-bdd step definition to paste for a step no definition matches.

The shape is pytest-bdd's own (its ``--generate-missing`` template: decorator, ``def _()``, the
step as docstring, ``raise NotImplementedError``), with two additions so one definition covers
the step's variations: a Scenario Outline's ``<placeholder>`` and each ``"quoted value"`` become
``parsers.parse`` fields passed to the function as ``str`` arguments.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["step_snippet"]

_PIECES: Final = re.compile(r'<(?P<placeholder>[^<>\n]+)>|"(?P<quoted>[^"\n]*)"')


def step_snippet(keyword: str, text: str) -> str:
    """Return Python source of a step definition for ``keyword`` (given/when/then) and ``text``.

    ``text`` is the step as written (an outline's ``<placeholders>`` kept). The source imports
    nothing itself: it expects ``from pytest_bdd import given, when, then, parsers``.
    """
    from pytest_bdd.scenario import (  # noqa: PLC0415 - only when a step is unbound
        make_python_docstring,
        make_python_name,
        make_string_literal,
    )

    names: list[str] = []
    pattern: list[str] = []
    last = 0
    for match in _PIECES.finditer(text):
        pattern.append(text[last : match.start()].replace("{", "{{").replace("}", "}}"))
        raw = match.group("placeholder")
        name = make_python_name(raw) if raw is not None else f"value{len(names) + 1}"
        name = name or f"value{len(names) + 1}"
        while name in names:
            name += "_"
        names.append(name)
        pattern.append(f"{{{name}}}" if raw is not None else f'"{{{name}}}"')
        last = match.end()
    if names:
        pattern.append(text[last:].replace("{", "{{").replace("}", "}}"))
        decorator = f"@{keyword}(parsers.parse({make_string_literal(''.join(pattern))}))"
        arguments = ", ".join(f"{name}: str" for name in names)
    else:
        decorator = f"@{keyword}({make_string_literal(text)})"
        arguments = ""
    return (
        f"{decorator}\n"
        f"def _({arguments}) -> None:\n"
        f"    {make_python_docstring(text)}\n"
        "    raise NotImplementedError\n"
    )
