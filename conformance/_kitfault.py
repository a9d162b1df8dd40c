"""Kit faults: an exception of the kit's own code while it judges an IUT is never a verdict.

While a scenario or a property runs, two kinds of exception are verdicts on the implementation
under test: a check that does not hold (``AssertionError``, raised by
:meth:`~conformance.checks.CheckResult.require`) and an IUT that broke the protocol, crashed, hung
or lied (:class:`~conformance.adapters.AdapterError`; an in-process IUT's own exception arrives
wrapped in one). pytest's outcomes (skip, fail) and interruptions are not ``Exception`` and are
left to pytest. Anything else (an ``OverflowError`` from a wait, a ``KeyError`` in a check, an
unknown step word) is a fault of the kit: :class:`KitFault` carries it out of the suite, to the
CLI's last-resort handler (``srdh: internal error: …``, exit 2; ``docs/cli.md``, "Exit codes"),
instead of a FAILED scenario that blames the IUT.
"""

from __future__ import annotations

__all__ = ["KitFault", "is_kit_fault"]


class KitFault(Exception):  # noqa: N818 - the name the docs and messages use
    """An exception the kit's own code raised while judging; never a verdict on the IUT.

    Attributes:
        error: the original exception (also the ``__cause__``).
        where: what was being judged (``scenario ID, step "When …"``, ``property ID``).
    """

    def __init__(self, error: BaseException, where: str) -> None:
        """Wrap ``error``; ``str()`` names its type, its message and ``where``."""
        self.error = error
        self.where = where
        super().__init__(
            f"{type(error).__name__}: {error} (while judging {where}; a fault of the kit, "
            "not a verdict on the implementation)"
        )


def is_kit_fault(error: BaseException) -> bool:
    """Whether ``error``, raised while a scenario or property ran, is the kit's own fault.

    False for a check's ``AssertionError``, an :class:`~conformance.adapters.AdapterError`, any
    ``BaseException`` that is not an ``Exception`` (pytest's skip and fail, interruptions), and
    an exception group (Hypothesis's ``FlakyFailure``) made only of those; true otherwise.
    """
    if isinstance(error, KitFault):
        return True
    if isinstance(error, BaseExceptionGroup):
        return any(is_kit_fault(sub) for sub in error.exceptions)
    if not isinstance(error, Exception):
        return False
    from conformance.adapters import AdapterError  # noqa: PLC0415 - lazy: the CLI imports this

    return not isinstance(error, AssertionError | AdapterError)
