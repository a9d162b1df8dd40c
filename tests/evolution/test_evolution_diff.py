"""`srdh diff`'s required action per change: none, minor, a $id bump or a protocol bump."""

from __future__ import annotations

from conformance.schemadiff import Direction, diff_documents, diff_schemas

BASE = "https://srdh.dev/schemas/"


def _closed(version: int, name: str, **props: object) -> dict:
    return {
        "$id": f"{BASE}v{version}/{name}.schema.json",
        "type": "object",
        "properties": props,
        "additionalProperties": False,
    }


def _hello(version: str) -> dict:
    const = {"const": version}
    hello = {"properties": {"protocol_version": const}}
    return {"$id": f"{BASE}v1/adapter-message.schema.json", "$defs": {"HelloMessage": hello}}


def test_each_change_names_its_action() -> None:
    """Neutral: none; compatible: minor (update); breaking: the bump command naming the contract."""
    old = _closed(1, "x", a={"type": "string"})
    new = _closed(1, "x", a={"type": "string"}, b={"type": "string"})
    (read,) = diff_schemas(old, new, contract="x", direction=Direction.READ)
    (emit,) = diff_schemas(old, new, contract="x", direction=Direction.EMIT)
    assert read.action == "minor: record it with `srdh contract update`"
    assert emit.action == "bump the $id version: `srdh contract bump x`"
    bumped = diff_schemas(old, {**new, "$id": f"{BASE}v2/x.schema.json"}, contract="x",
                          direction=Direction.EMIT)  # fmt: skip
    assert [(c.rule.rule_id, c.action) for c in bumped] == [
        ("SD025", "none"),
        ("SD010", "none: the $id version is bumped"),
    ]


def test_a_reference_retargeted_to_the_next_version_is_no_change_of_its_own() -> None:
    """y's $ref to x v1 (relative) and to x v2 (absolute) name the same contract."""
    x1, x2 = _closed(1, "x"), _closed(2, "x")
    y1 = _closed(1, "y", x={"$ref": "x.schema.json"})
    y2 = _closed(1, "y", x={"$ref": f"{BASE}v2/x.schema.json"})
    changes = diff_documents({"x": x1, "y": y1}, {"x": x2, "y": y2}, directions={})
    assert [(c.contract, c.rule.rule_id) for c in changes] == [("x", "SD025")]


def test_protocol_schemas_are_bumped_by_the_protocol_version() -> None:
    """A breaking change of a protocol schema needs the hello protocol_version to go up."""
    old = {"adapter-message": _hello("2.0"), "p": _closed(1, "p")}
    changed = {"p": _closed(1, "p", a={"type": "string"})}
    same = diff_documents(old, {**old, **changed}, directions={"p": Direction.EMIT}, protocol={"p"})
    (change,) = [c for c in same if c.contract == "p"]
    assert change.breaking
    assert not change.bumped
    assert "protocol_version" in change.action
    newer = {**old, **changed, "adapter-message": _hello("3.0")}
    bumped = diff_documents(old, newer, directions={"p": Direction.EMIT}, protocol={"p"})
    (change,) = [c for c in bumped if c.contract == "p"]
    assert change.bumped
    assert change.action == "none: the protocol version is bumped"
