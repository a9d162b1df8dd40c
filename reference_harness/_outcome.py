"""How a Run ends: the terminal state and the published result document (before release)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from contracts import SafeFallback

__all__ = ["Outcome", "failed", "fallback", "success"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A terminal state other than CANCELLED, with its ``PublishedResult`` document."""

    state: Literal["SUCCESS", "FALLBACK", "FAILED"]
    published: dict[str, Any]
    fallback_type: str | None = None
    error_code: str | None = None

    @property
    def kind(self) -> str:
        """The published result kind."""
        return str(self.published["kind"])


def success(result_kind: str, body: object) -> Outcome:
    """Release ``body`` (the JSON the agent submitted, unchanged) as ``result_kind``."""
    key = "diagnosis_draft" if result_kind == "DIAGNOSIS_DRAFT" else "knowledge_answer"
    return Outcome(state="SUCCESS", published={"kind": result_kind, key: body})


def fallback(safe: SafeFallback) -> Outcome:
    """Publish the Safe Fallback ``safe``."""
    document = safe.model_dump(mode="json", exclude_none=True)
    return Outcome(
        state="FALLBACK",
        published={"kind": "SAFE_FALLBACK", "safe_fallback": document},
        fallback_type=str(document["fallback_type"]),
    )


def failed(error_code: str) -> Outcome:
    """Publish the fixed Public Error ``error_code``."""
    return Outcome(
        state="FAILED",
        published={"kind": "PUBLIC_ERROR", "public_error": {"error_code": error_code}},
        error_code=error_code,
    )
