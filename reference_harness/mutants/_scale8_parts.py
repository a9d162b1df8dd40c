"""Parts of red team 8's "bounded loop" mutants (docs/decisions/red-team-8.md, "Long lists").

Each part caps one list the reference walks whole: a check that covers the first entries only,
a seen-id set that remembers the last ids only, an id key cut to its first characters. A short
fixture never reaches the cap; only a long list with its defect late does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = [
    "capped_violations",
    "empty_answer_excused_by_limitation",
    "id_key_prefix",
    "process_wide_invocations",
    "recent_ids_only",
    "snapshot_evidence_capped",
]

WINDOW: Final = 6
"""How many accepted ids the windowed seen-id set remembers (red team 8's LRU)."""

KEY_CHARS: Final = 64
"""How many characters of an id the cut key keeps (red team 8's storage column)."""

SNAPSHOT_CAP: Final = 4
"""How many cited invocations' evidence the capped snapshot carries (red team 8's prompt cap)."""


def capped_violations(section: str, cap: int) -> Callable[[Any], Any]:
    """Wrap a binding pass: it reports violations of ``/section/0`` .. ``/section/cap-1`` only.

    The entries past ``cap`` are still schema-checked (the structural pass runs before), but
    their bindings are never looked at: a cost cap.
    """
    late = re.compile(rf"/{section}/(\d+)(?:/|$)")

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def binding_violations(document: Any, views: Any) -> Any:  # noqa: ANN401 - reference types
            return [
                v
                for v in original(document, views)
                if not ((m := late.match(v.pointer)) and int(m.group(1)) >= cap)
            ]

        return binding_violations

    return wrap


def recent_ids_only(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``classify_tool_call_id``: duplicates are judged against the last accepted ids only."""

    def classify(presented: object, accepted: Any) -> Any:  # noqa: ANN401 - the reference types
        return original(presented, list(accepted)[-WINDOW:])

    return classify


def id_key_prefix(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``classify_tool_call_id``: an id is keyed by its first :data:`KEY_CHARS` characters."""

    def classify(presented: object, accepted: Any) -> Any:  # noqa: ANN401 - the reference types
        reason = original(presented, accepted)
        if reason is None and isinstance(presented, str):
            keys = {str(a)[:KEY_CHARS] for a in accepted}
            return "DUPLICATE_ID" if presented[:KEY_CHARS] in keys else None
        return reason

    return classify


def snapshot_evidence_capped(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``build_snapshot``: the evidence holds the first :data:`SNAPSHOT_CAP` cited calls only.

    A prompt-size cap: the claims citing later calls are reviewed without their evidence.
    """
    from contracts import VerifiedSnapshot, digest  # noqa: PLC0415 - loads schemas

    def build(*, run_id: str, document: Any, invocations: Any) -> Any:  # noqa: ANN401 - reference types
        snapshot = original(run_id=run_id, document=document, invocations=invocations)
        unsigned = snapshot.model_dump(mode="json", exclude_none=True)
        unsigned.pop("digest", None)
        unsigned["evidence"] = unsigned["evidence"][:SNAPSHOT_CAP]
        return VerifiedSnapshot.model_validate({**unsigned, "digest": digest(unsigned)})

    return build


_REGISTRY: dict[str, Any] = {}
"""Every invocation any Run of this process accepted, keyed by Tool Call ID alone (the fault)."""


class _ProcessWide(Mapping[str, Any]):
    """The Run's invocations, then any other Run's of this process under the same id."""

    def __init__(self, own: Mapping[str, Any], run_id: str) -> None:
        self._own = own
        self._run_id = run_id

    def __getitem__(self, key: str) -> Any:  # noqa: ANN401 - a ToolInvocation
        if key in self._own:
            model = self._own[key]
            _REGISTRY[key] = model
            return model
        return _REGISTRY[key].model_copy(update={"run_id": self._run_id})

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._own, *_REGISTRY]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*self._own, *_REGISTRY]))


def process_wide_invocations(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``_invocation_models``: a citation unknown to the Run resolves to another Run's call."""

    def invocations(ctx: Any) -> Any:  # noqa: ANN401 - the reference's RunContext
        own = original(ctx)
        for key in own:
            _REGISTRY[key] = own[key]
        return _ProcessWide(own, ctx.run_id)

    return invocations


def empty_answer_excused_by_limitation(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``knowledge_binding_violations``: zero items pass when the answer has a limitation."""

    def binding_violations(answer: Any, views: Any) -> Any:  # noqa: ANN401 - reference types
        violations = original(answer, views)
        if not answer["limitations"]:
            return violations
        return [v for v in violations if v.code != "EMPTY_ANSWER_WITH_DOCUMENTS"]

    return binding_violations
