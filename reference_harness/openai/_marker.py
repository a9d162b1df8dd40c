"""The component marker: how a request says which component it is for (Router, Agent, Reviewer).

Every adapter starts its system prompt with one marker line, ``[srdh-component: ROUTER]`` (or
``DIAGNOSIS_AGENT``, ``SEMANTIC_GUARD``). A real model reads it as a harmless role label; the
scripted server reads it to pick the script of that component. Model names are left to the user's
endpoint, so they cannot carry the marker.
"""

from __future__ import annotations

import re
from typing import Final, Literal, TypeAlias

__all__ = ["Component", "component_of", "marker_line"]

Component: TypeAlias = Literal["ROUTER", "DIAGNOSIS_AGENT", "SEMANTIC_GUARD"]
"""The model-backed components (contract sheet: component)."""

_MARKER: Final = re.compile(r"^\[srdh-component: (ROUTER|DIAGNOSIS_AGENT|SEMANTIC_GUARD)\]")
_COMPONENTS: Final[dict[str, Component]] = {
    "ROUTER": "ROUTER",
    "DIAGNOSIS_AGENT": "DIAGNOSIS_AGENT",
    "SEMANTIC_GUARD": "SEMANTIC_GUARD",
}


def marker_line(component: Component) -> str:
    """Return the first line of the system prompt of ``component``'s requests."""
    return f"[srdh-component: {component}]"


def component_of(messages: object) -> Component | None:
    """Return the component named by the first instruction message of ``messages``, or ``None``.

    An instruction message has role ``system`` or ``developer`` (OpenAI's name for system
    instructions).

    ``messages`` is the ``messages`` value of a chat-completions request body (any JSON value).
    """
    if not isinstance(messages, list):
        return None
    for message in messages:
        if isinstance(message, dict) and message.get("role") in {"system", "developer"}:
            content = message.get("content")
            if isinstance(content, str) and (found := _MARKER.match(content)):
                return _COMPONENTS[found.group(1)]
            return None
    return None
