"""How many generated examples each property of a run judges, by default.

One number for every property a run judges: each spec scenario's property and any property the
suite adds (a property scenario reads the run's count, never a default of its own). ``srdh run``
uses it unless ``--examples N`` says otherwise (``--examples 0``: the Gherkin scenarios only);
the tests' ``dev`` Hypothesis profile uses it too (the ``ci`` profile, ``SRDH_PROPERTY_PROFILE=ci``,
uses 100). Why 10: ``docs/decisions/default-examples.md``.

Only the standard library is imported: the CLI reads this module at start-up (``--help`` shows
the default).
"""

from __future__ import annotations

from typing import Final

__all__ = ["CI_EXAMPLES", "DEFAULT_EXAMPLES", "DEFAULT_PROPERTY_EXAMPLES"]

DEFAULT_EXAMPLES: Final = 10
"""Generated examples per property of a plain ``srdh run``."""

CI_EXAMPLES: Final = 100
"""Generated examples per property of the tests' ``ci`` Hypothesis profile."""

DEFAULT_PROPERTY_EXAMPLES: Final = 100
"""Examples of a property asked for by id (``<scenario>-property``) when the run's count is 0 or
``None``: a recording of an older ``srdh run`` without ``--examples`` is replayed with the count
it ran."""
