"""The one error family of IUT adapters."""

from __future__ import annotations

__all__ = ["AdapterError"]


class AdapterError(RuntimeError):
    """The implementation under test broke the adapter protocol, crashed, hung or lied.

    Attributes:
        reason: one line saying what went wrong (e.g. ``"IUT sent invalid JSON"``).
        stderr_tail: the last lines the IUT wrote to stderr (stdio adapters), or ``""``.
        timeout_s: the per-message timeout in force, in seconds, or ``None``.
    """

    def __init__(
        self, reason: str, *, stderr_tail: str = "", timeout_s: float | None = None
    ) -> None:
        """Build the error; ``str()`` joins the reason, the timeout and the stderr tail."""
        self.reason = reason
        self.stderr_tail = stderr_tail
        self.timeout_s = timeout_s
        parts = [reason]
        if timeout_s is not None:
            parts.append(f"(per-message timeout {timeout_s:g} s)")
        if stderr_tail:
            parts.append(f"\n--- IUT stderr (tail) ---\n{stderr_tail}")
        super().__init__(" ".join(parts[:2]) + "".join(parts[2:]))
