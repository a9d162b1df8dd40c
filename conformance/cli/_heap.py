"""The ``srdh`` process's heap: what its imports built, kept out of the garbage collector's sight.

A ``srdh run`` imports the whole kit (the suite, pytest, Hypothesis, the contracts' models, the
reference harness for an in-process IUT): ~200,000 objects that live until the process ends.
Every full collection during the run walked all of them again (~0.1 CPU s each, several per run).
:func:`freeze_imports` moves them into the permanent generation once, when the command's imports
are done (:func:`gc.freeze`); what the run itself allocates is collected as before.

Only a process that :func:`~conformance.cli.main` started does this (:func:`own_heap`): the
command called in another program's process (a test's ``CliRunner``, an embedding tool) leaves
that program's collector alone, since frozen objects are never collected.
"""

from __future__ import annotations

import gc

__all__ = ["freeze_imports", "own_heap"]

_owned = False


def own_heap() -> None:
    """Mark this process as ``srdh``'s own (called by the console script's ``main``)."""
    global _owned  # noqa: PLW0603 - one flag per process
    _owned = True


def freeze_imports() -> None:
    """Freeze every object alive now, once, in a process :func:`own_heap` marked; else nothing.

    Called when a command's imports are done and its work starts. Nothing observable changes:
    the frozen objects are the imports', which live until the process ends anyway.
    """
    global _owned  # noqa: PLW0603 - one flag per process
    if _owned:
        _owned = False
        gc.freeze()
