"""``srdh scenario new``: the mechanical part of adding a spec scenario, done in one command.

See :func:`new_scenario` and ``docs/adding-a-scenario.md``.
"""

from conformance.scaffold._new import ScaffoldError, ScaffoldResult, new_scenario

__all__ = ["ScaffoldError", "ScaffoldResult", "new_scenario"]
