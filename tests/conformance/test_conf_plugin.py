"""The pytest plugin on its own: options, tag markers under --strict-markers, the iut fixture."""

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.bdd import plugin

REPO = Path(__file__).resolve().parents[2]
SUITE_MODULE = REPO / "conformance" / "suite" / "_gherkin_suite.py"


def _pytest(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """Run a fresh pytest over the packaged suite with only the plugin and ``options``."""
    ini = tmp_path / "pytest.ini"
    ini.write_text("[pytest]\naddopts = --strict-markers\n", encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(SUITE_MODULE),
        "-c",
        str(ini),
        "--rootdir",
        str(tmp_path),
        "-p",
        "no:cacheprovider",
        "-p",
        "conformance.bdd.plugin",
        "-q",
        "-k",
        "duplicate_tool_call_id_is_proposed or contract_ownership",
        *options,
    ]
    return subprocess.run(  # noqa: S603 - the test's own interpreter
        command, capture_output=True, text=True, cwd=tmp_path, timeout=110, check=False
    )


def test_iut_module_option_runs_the_suite(tmp_path):
    """``--srdh-iut-module`` runs the selected scenarios green under --strict-markers."""
    done = _pytest(tmp_path, "--srdh-iut-module", "reference_harness.iut:create")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_iut_cmd_option_runs_the_suite(tmp_path):
    """``--srdh-iut-cmd`` runs the same scenarios through a stdio subprocess."""
    command = f"{sys.executable} -m reference_harness.stdio"
    done = _pytest(tmp_path, "--srdh-iut-cmd", command, "--srdh-iut-timeout", "30")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_missing_iut_option_is_a_clear_failure(tmp_path):
    """Without an IUT option every scenario fails with a message saying which option to pass."""
    done = _pytest(tmp_path)
    assert done.returncode == 1
    assert "pass --srdh-iut-module MOD:FACTORY or --srdh-iut-cmd CMD" in done.stdout


@pytest.mark.parametrize(
    ("tag", "marker", "args"),
    [
        ("requirement:tool-ids", "srdh_requirement", ("tool-ids",)),
        ("scenario:dup", "srdh_scenario", ("dup",)),
        ("capability:CANCELLATION", "srdh_capability", ("CANCELLATION",)),
        ("spec", "srdh_spec", ()),
        ("extension", "srdh_extension", ()),
    ],
)
def test_tags_become_registered_markers(tag, marker, args):
    """Each suite tag maps to one registered srdh_* marker carrying its value."""

    def scenario_function() -> None:
        """A stand-in for a pytest-bdd scenario function."""

    marked = plugin.pytest_bdd_apply_tag(tag, scenario_function)
    marks = [(m.name, m.args) for m in getattr(marked, "pytestmark", [])]
    assert marks == [(marker, args)]
    assert any(name.startswith(marker) for name in plugin.MARKERS)


def test_foreign_tags_are_left_to_pytest_bdd():
    """Tags the suite does not own are not consumed (pytest-bdd's default applies)."""

    def scenario_function() -> None:
        """A stand-in for a pytest-bdd scenario function."""

    assert plugin.pytest_bdd_apply_tag("slow", scenario_function) is None
    assert plugin.pytest_bdd_apply_tag("other:value", scenario_function) is None
