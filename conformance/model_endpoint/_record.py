"""Recording a chat-completions request body as a ``ModelRequest`` of the Run Observation.

The body is whatever the IUT sent (any JSON). Messages keep ``role``, ``content``, ``tool_calls``,
``tool_call_id`` and ``name`` as sent; every other key of a message goes, with its value, into
``other_fields`` (so a chain-of-thought field stays visible). Tools are recorded by function name.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["chat_messages", "offered_tools", "tool_names"]

_KEPT: Final = ("content", "tool_calls", "tool_call_id", "name")
_ROLE_MAX: Final = 64
_NAME_MAX: Final = 128


def _message(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {"role": "", "content": value}
    role = value.get("role")
    message: dict[str, Any] = {"role": role[:_ROLE_MAX] if isinstance(role, str) else ""}
    for key in _KEPT:
        if key in value:
            message[key] = value[key]
    if "tool_calls" in message and not isinstance(message["tool_calls"], list):
        message["tool_calls"] = [message["tool_calls"]]
    other = {k: v for k, v in value.items() if k != "role" and k not in _KEPT}
    if other:
        message["other_fields"] = other
    return message


def chat_messages(messages: object) -> list[dict[str, Any]]:
    """Return the ``ChatMessage`` list of a request's ``messages`` value (any JSON)."""
    if not isinstance(messages, list):
        return [] if messages is None else [_message(messages)]
    return [_message(message) for message in messages]


def tool_names(tools: object) -> list[str]:
    """Return the function names of a request's ``tools`` value (``""`` for a nameless entry)."""
    if not isinstance(tools, list):
        return []
    names = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        names.append(name[:_NAME_MAX] if isinstance(name, str) else "")
    return names


def offered_tools(body: object) -> list[str]:
    """Return the names of every tool a request body offers the model, in any spelling.

    ``tools`` (by function name), the legacy ``functions`` list (by name) and a ``tool_choice``
    or ``function_call`` that names a function: a request offering a tool in any of these ways
    offers tools (a structural repair or a SemanticGuard call must offer none).
    """
    if not isinstance(body, dict):
        return []
    names = tool_names(body.get("tools"))
    functions = body.get("functions")
    if isinstance(functions, list):
        for function in functions:
            name = function.get("name") if isinstance(function, dict) else None
            names.append(name[:_NAME_MAX] if isinstance(name, str) else "")
    for key in ("tool_choice", "function_call"):
        choice = body.get(key)
        if not isinstance(choice, dict):
            continue
        function = choice.get("function") if isinstance(choice.get("function"), dict) else choice
        name = function.get("name") if isinstance(function, dict) else None
        if isinstance(name, str) and name[:_NAME_MAX] not in names:
            names.append(name[:_NAME_MAX])
    return names
