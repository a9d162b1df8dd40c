"""Which rule modules are mutated (issue 10 item 8).

The rule families: guards, release, previous-turn selection, identity, cancellation and retry.

A target is a module of ``reference_harness`` (a path relative to the package) and, optionally,
the functions/methods of it that hold the rule (a module that mixes a rule with plumbing, such as
the Run store, is restricted to the rule's functions).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["PACKAGE", "TARGETS", "Target", "package_root"]

PACKAGE = "reference_harness"
"""The package that is copied and mutated."""


@dataclass(frozen=True, slots=True)
class Target:
    """One mutated module.

    Attributes:
        path: the module, relative to the ``reference_harness`` package (POSIX separators).
        rule: the rule family it holds (for the report).
        functions: names of the functions/methods the mutations are restricted to; empty means the
            whole module.
    """

    path: str
    rule: str
    functions: tuple[str, ...] = ()


TARGETS: tuple[Target, ...] = (
    Target("guards/_body.py", "guards"),
    Target("guards/_draft.py", "guards"),
    Target("guards/_fallback.py", "guards"),
    Target("guards/_invocations.py", "guards"),
    Target("guards/_knowledge.py", "guards"),
    Target("guards/_pointer.py", "guards"),
    Target("guards/_repair.py", "guards"),
    Target("guards/_schema.py", "guards"),
    Target("guards/_snapshot.py", "guards"),
    Target("guards/_verdict.py", "guards"),
    Target("guards/_violations.py", "guards"),
    Target("_release.py", "release"),
    Target("store/_selection.py", "previous-turn selection"),
    Target("store/_store.py", "previous-turn selection", ("select_previous_turn",)),
    Target("_ids.py", "identity (Tool Call ID)"),
    Target("_invocations.py", "identity (invocation ledger)"),
    Target("_cancellation.py", "cancellation"),
    Target(
        "_run_context.py",
        "cancellation",
        ("gate_closed", "check_open", "pass_release_gate", "on_cancel"),
    ),
    Target("_retry.py", "retry"),
    Target("_model_calls.py", "retry", ("call_with_retry",)),
)
"""The rule modules. ``_model_calls.call_with_retry`` applies the retry policy of ``_retry``;
``RunStore.select_previous_turn`` is the previous-turn seek whose skip reasons ``_selection``
names; ``RunContext.on_cancel`` and its gate are the layered cancellation that ``_cancellation``'s
scope triggers."""


def package_root() -> Path:
    """Return the directory of the (unmutated) ``reference_harness`` package in this checkout."""
    return Path(__file__).resolve().parents[2] / PACKAGE
