"""run_suite tells Ctrl-C apart from a suite that could not start (both are pytest exit 2)."""

from __future__ import annotations

import pytest

from conformance.adapters import InProcessAdapter
from conformance.suite import SuiteSetupError, run_suite
from conformance.suite import _run as suite_run


def _fake_main(printed: str):
    def main(_args, plugins=()):  # noqa: ARG001 - the real pytest.main's signature
        print(printed)  # noqa: T201 - pytest's terminal output, captured by run_suite
        return pytest.ExitCode.INTERRUPTED

    return main


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("!!!!! KeyboardInterrupt !!!!!", "interrupted (Ctrl-C)"),
        ("Interrupted: 1 error during collection", "did not run (pytest exit code 2)"),
    ],
    ids=["ctrl-c", "collection-error"],
)
def test_conf_interrupted_suite_says_why(monkeypatch, printed, expected):
    """A KeyboardInterrupt is reported as an interruption; a collection error as not run."""
    monkeypatch.setattr(suite_run.pytest, "main", _fake_main(printed))
    adapter = InProcessAdapter("reference_harness.iut:create")
    try:
        with pytest.raises(SuiteSetupError) as caught:
            run_suite(adapter)
    finally:
        adapter.close()
    assert expected in str(caught.value)
