"""Mutation testing of the reference Harness's rule modules, killed by the conformance suite alone.

``python -m bench.mutation [--sample N] [--seed S] [--modules PATH ...] [--exclude RESULTS ...]``,
or ``python -m bench.mutation --survivors-of RESULTS`` to re-judge only a recorded run's survivors
against the current checkout (see :mod:`._cli`, :mod:`._rerun`).

Cosmic Ray (8.x) enumerates the mutations of the rule modules named in :mod:`._config` and applies
each one to a *temporary copy* of ``reference_harness/``; the only killer is the conformance suite
(``conformance.suite.run_suite``) run through a :class:`~conformance.adapters.StdioAdapter` on
``python -P -m reference_harness.stdio`` with ``PYTHONPATH`` pointing at that copy, stopping at the
first failing scenario. The project's unit tests never run. Nothing in the working tree is mutated.
Not part of ``make test`` (minutes to hours); ``tests/bench/test_mutation.py`` checks the wiring.
"""
