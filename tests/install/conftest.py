"""The GitHub Actions templates of ``docs/ci/`` read as data (fixture ``ci``)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CI_DIR = ROOT / "docs" / "ci"
ZIZMOR_CONFIG = CI_DIR / "zizmor.yml"
WORKFLOWS = tuple(sorted(p for p in CI_DIR.glob("*.yml") if p != ZIZMOR_CONFIG))
"""Every workflow template (every ``.yml`` under ``docs/ci/`` but zizmor's settings)."""

_EXPRESSION = re.compile(r"\$\{\{")


def load_workflow(path: Path) -> dict[str, Any]:
    """Parse one workflow file; YAML 1.1 reads the key ``on`` as ``True``, so it is renamed."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(document, dict), path
    if True in document:
        document["on"] = document.pop(True)
    return document


def run_scripts(workflow: dict[str, Any]) -> list[tuple[str, str]]:
    """Every ``run:`` script of the workflow as ``(job/step name, script)``, in file order."""
    found = []
    for job_id, job in workflow.get("jobs", {}).items():
        for index, step in enumerate(job.get("steps", [])):
            if "run" in step:
                found.append((f"{job_id}/{step.get('name', index)}", str(step["run"])))
    return found


def expressions_in_run(workflow: dict[str, Any]) -> list[str]:
    """The steps whose ``run:`` script holds a ``${{ }}`` expression (a shell-injection risk)."""
    return [where for where, script in run_scripts(workflow) if _EXPRESSION.search(script)]


@pytest.fixture(scope="session")
def ci() -> SimpleNamespace:
    """The helpers above, for test modules (``--import-mode=importlib`` cannot import conftest)."""
    return SimpleNamespace(
        root=ROOT,
        ci_dir=CI_DIR,
        zizmor_config=ZIZMOR_CONFIG,
        workflows=WORKFLOWS,
        load_workflow=load_workflow,
        run_scripts=run_scripts,
        expressions_in_run=expressions_in_run,
    )
