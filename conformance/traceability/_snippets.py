"""What to add for a step no definition matches: the kit's registries, or a Given definition.

A spec scenario's ``When`` that runs the fixture is one line in the kit's When registry
(``SPEC_RUN_SENTENCES``), its ``Then`` one entry in the Then registry (``THEN_CHECKS``, which the
scenario's property reuses): :func:`step_hint` names them. Only a ``Given`` (or a When/Then that
is neither) needs a new step definition, of the shape below.

The shape is pytest-bdd's own (its ``--generate-missing`` template: decorator, ``def _()``, the
step as docstring, ``raise NotImplementedError``), with two additions so one definition covers
the step's variations: a Scenario Outline's ``<placeholder>`` and each ``"quoted value"`` become
``parsers.parse`` fields passed to the function as ``str`` arguments.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["step_hint", "step_snippet"]

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


WHEN_REGISTRY = "SPEC_RUN_SENTENCES in conformance/bdd/_when.py"
THEN_REGISTRY = "THEN_CHECKS in conformance/bdd/_then.py"


def step_hint(keyword: str, text: str) -> str:
    """Return what to add so that the ``keyword`` step ``text`` is bound (one message).

    ``when``: the sentence, added to the kit's When registry (the step runs the scenario's
    fixture through the IUT once). ``then``: the entry to add to the Then registry (the check it
    calls goes in ``conformance/checks/``, its rule in ``conformance/checks/_rules.py``; the
    scenario's property uses the same entry). ``given``: a step definition in
    ``conformance/bdd/_given.py`` to complete (:func:`step_snippet`), building the fixture from
    data with ``srdh_context.builder`` (``conformance/builders/_builder.py``).
    """
    if keyword == "when":
        return (
            f"add the sentence to the kit's When registry, {WHEN_REGISTRY} (the step then runs "
            f"the scenario's fixture through the IUT once):\n    {text!r},"
        )
    if keyword == "then":
        return (
            f"add an entry to the kit's Then registry, {THEN_REGISTRY} (the scenario's "
            "property reuses it; write the check in conformance/checks/ and register its rule "
            f"in conformance/checks/_rules.py):\n    {text!r}: lambda c: "
            "checks.check_<what>(c.observation, c.ran_fixture),"
        )
    return (
        "reuse a Given of conformance/bdd/_given.py, or add one there that builds the fixture "
        "with srdh_context.builder (conformance/builders/_builder.py); a definition to start "
        f"from (with `from pytest_bdd import given, when, then, parsers`):\n"
        f"{step_snippet(keyword, text)}"
    )
