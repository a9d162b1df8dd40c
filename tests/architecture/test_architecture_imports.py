"""The import graph: layers point one way and no module imports itself back (import-linter).

The contracts live in pyproject.toml (``[tool.importlinter]``): a ``layers`` contract
(contracts <- reference_harness <- conformance <- bench) and an ``acyclic_siblings`` contract (no
cycle between the modules of any package, nor between sibling packages). Every import counts:
at module level, inside a function, under ``TYPE_CHECKING``. Tests are not a package and may
import anything.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_LINT = (
    "import sys; from importlinter.cli import lint_imports; "
    "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))"
)


def _lint(config: Path, cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    return subprocess.run(  # noqa: S603 - our interpreter and a fixed script
        [sys.executable, "-c", _LINT, str(config)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def _contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def test_the_kit_keeps_its_layers_and_has_no_import_cycle():
    done = _lint(REPO / "pyproject.toml", REPO, REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


def test_the_contracts_name_the_documented_layers_and_every_package():
    contracts = _contracts()
    assert contracts["layers"]["type"] == "layers"
    assert contracts["layers"]["layers"] == [
        "bench",
        "conformance",
        "reference_harness",
        "contracts",
    ]
    assert contracts["acyclic"]["type"] == "acyclic_siblings"
    assert set(contracts["acyclic"]["ancestors"]) == {  # type: ignore[arg-type]
        "contracts",
        "reference_harness",
        "conformance",
        "bench",
    }
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["importlinter"]["exclude_type_checking_imports"] is False


def test_no_contract_exempts_an_import():
    """The contracts hold for every import: none is ignored, none is allowed as an exception.

    The last two exemptions were removed by moving code where its layer allows it: the fixture
    builders to ``conformance.builders`` (``python -m conformance.fixtures`` runs the suite) and
    the fixture-driven IUT base to ``reference_harness._fixture_iut`` (the OpenAI IUT shares it).
    """
    for contract in _contracts().values():
        assert "ignore_imports" not in contract, contract


def test_the_same_contracts_catch_a_cycle_inside_a_function_and_an_upward_import(tmp_path):
    """The contract types of pyproject.toml, on a planted graph, each report what they must."""
    files = {
        "low/__init__.py": "",
        # upward: the lower layer imports the upper one (inside a function, as _serve.py did)
        "low/service.py": "def f():\n    from high import gate  # noqa\n    return gate\n",
        "high/__init__.py": "",
        "high/gate.py": "import low.service\n",
        # a cycle through a TYPE_CHECKING import, like traceability/_model <-> _sentences was
        "high/a.py": "from high.b import B\n",
        "high/b.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from high.a import x\nB = 1\n"
        ),
    }
    for name, text in files.items():
        path = tmp_path / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    contracts = _contracts()
    config = tmp_path / "setup.toml"
    config.write_text(
        textwrap.dedent(
            f"""
            [tool.importlinter]
            root_packages = ["low", "high"]
            exclude_type_checking_imports = false

            [[tool.importlinter.contracts]]
            id = "layers"
            name = "layers"
            type = "{contracts["layers"]["type"]}"
            layers = ["high", "low"]

            [[tool.importlinter.contracts]]
            id = "acyclic"
            name = "acyclic"
            type = "{contracts["acyclic"]["type"]}"
            ancestors = ["low", "high"]
            """
        ),
        encoding="utf-8",
    )
    done = _lint(config, tmp_path, tmp_path / "src")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "0 kept, 2 broken" in done.stdout
    assert "low.service -> high.gate" in done.stdout
    assert "No cycles are allowed in high" in done.stdout


def test_importing_every_reference_harness_module_imports_no_kit_module():
    """The reference service takes the kit's decisions as inputs: it never imports conformance."""
    script = textwrap.dedent(
        """
        import importlib, pkgutil, sys
        import reference_harness
        for info in pkgutil.walk_packages(reference_harness.__path__, "reference_harness."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
        loaded = sorted(m for m in sys.modules if m.split(".")[0] == "conformance")
        print("KIT", loaded)
        """
    )
    done = subprocess.run(  # noqa: S603 - our interpreter and a fixed script
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "KIT []" in done.stdout, done.stdout
