"""The built wheel installs in a fresh virtual environment and runs the suite from any folder.

The test builds the wheel as a user would (``python -m build --wheel``; the build backend comes
from the package index pip is configured with, so the machine's local index suffices), then plays
the ``run:`` scripts of docs/ci/github-actions-implementer.yml in order, the way GitHub Actions
would: the kit is installed into its own venv under ``RUNNER_TEMP`` and ``srdh run --iut`` runs
from a temporary folder that is not this repository, against the reference harness's stdio entry
of that venv; then `srdh demo` and `srdh gate` run from that venv. About 30 s on an idle machine
(mostly ``pip install`` of the dependencies).

One change to the scripts: the suite step runs ``--examples 1`` (every scenario, and every
property at one generated example instead of the default 10). What this module proves is that
the installed wheel holds and finds everything a plain run needs, from a folder that is not the
kit's: every Gherkin scenario reads its feature file and fixture from the package data, every
property imports its strategy and draws, the any-fixture scenario runs its 51 pins and a draw.
Nine more examples per property read no other file and import no other module; they cost about
a quarter of the step's CPU (docs/decisions/test-speed.md, Session 6). That a plain run uses
10 is tests/cli/test_cli_run.py's claim; that the reference passes every property over stdio at
the default count is the Java example's (tests/examples) for a stdio IUT and tests/properties'
for the reference.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from filelock import FileLock

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

SUITE_STEP = 'srdh run --iut "$SRDH_IUT"'
"""The template's suite command; the test adds ``--examples 1`` after it (module docstring)."""

_DROPPED_ENV = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "PYTHONSAFEPATH")


def _clean_env(tmp: Path) -> dict[str, str]:
    """The environment minus anything that could let the repository's code leak in."""
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p
    )
    env["HOME"] = env.get("HOME", str(tmp))
    env.pop("CI", None)  # a summary table, not CI-specific behaviour, is what is checked here
    # pip installs without compiling every dependency's modules to bytecode (the template's
    # ``pip install`` line is unchanged; Python compiles what the run imports, once, into the
    # venv). Spelled PIP_COMPILE=0: pip reads PIP_NO_COMPILE=1 as ``compile = 1`` and compiles.
    env["PIP_COMPILE"] = "0"
    return env


def _sh(script: str, *, cwd: Path, env: dict[str, str], timeout: float) -> str:
    done = subprocess.run(  # noqa: S603 - the template's own script, as Actions runs it
        ["/bin/bash", "-e", "-o", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )
    assert done.returncode == 0, f"$ {script}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def _build_wheel(tmp_path_factory: pytest.TempPathFactory, ci: SimpleNamespace) -> Path:
    """The kit's wheel, built from this checkout into a temporary folder."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(  # noqa: S603 - fixed argv: python -m build
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ci.root)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    (built,) = out.glob("srdh_conformance_kit-*.whl")
    return built


def _play(
    wheel: Path, ci: SimpleNamespace, tmp_path_factory: pytest.TempPathFactory
) -> SimpleNamespace:
    """The implementer template's ``run:`` scripts, played in order as Actions would run them."""
    tmp_path = tmp_path_factory.mktemp("actions")
    workflow = ci.load_workflow(ci.ci_dir / "github-actions-implementer.yml")
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    workspace = tmp_path / "implementer-repo"  # the IUT's repository: no kit source in it
    workspace.mkdir()
    github_path = tmp_path / "github_path"
    summary = tmp_path / "step_summary.md"
    github_path.touch()
    kit_python = runner_temp / "srdh" / "bin" / "python"
    overrides = {  # the values a user sets (the template takes them from repository variables)
        "SRDH_KIT": str(wheel),
        "SRDH_IUT": f"{kit_python} -m reference_harness.stdio",
        "BUILD_COMMAND": "true",
    }
    env = _clean_env(tmp_path)
    for key, value in workflow["env"].items():
        if "${{" in str(value):
            assert key in overrides, f"the test must set {key}"
        env[key] = overrides.get(key, str(value))
    env.update(
        RUNNER_TEMP=str(runner_temp),
        GITHUB_PATH=str(github_path),
        GITHUB_STEP_SUMMARY=str(summary),
        GITHUB_WORKSPACE=str(workspace),
    )
    outputs = {}
    scripts = ci.run_scripts(workflow)
    assert sum(script.count(SUITE_STEP) for _, script in scripts) == 1, scripts
    for where, template_script in scripts:
        script = template_script.replace(SUITE_STEP, f"{SUITE_STEP} --examples 1")
        added = [line for line in github_path.read_text().splitlines() if line]
        env["PATH"] = os.pathsep.join([*reversed(added), _clean_env(tmp_path)["PATH"]])
        outputs[where] = _sh(script, cwd=workspace, env=env, timeout=600)
    version = tomllib.loads((ci.root / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    return SimpleNamespace(
        env=env,
        outputs=outputs,
        runner_temp=runner_temp,
        workspace=workspace,
        summary=summary,
        version=version,
        tmp_path=tmp_path,
    )


_PATHS = ("runner_temp", "workspace", "summary", "tmp_path")


@pytest.fixture(scope="module")
def played(ci, tmp_path_factory) -> SimpleNamespace:
    """The wheel built and the template played once per test run, whichever worker needs it.

    pytest-xdist (``make test``: ``--dist worksteal``) may hand this module's two tests to two
    workers, and a module fixture then ran twice: a second wheel, venv, ``pip install`` and
    suite run, about 40 CPU s. The first worker to need it plays the template under a file lock
    in the run's common temporary folder and leaves a record (outputs, environment, paths of
    its venv and folders); a worker that comes later uses the same installation. A failed
    play leaves no record (docs/decisions/test-speed.md, Session 7).
    """
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's root
    record = shared / "install-wheel-played.json"
    with FileLock(str(shared / "install-wheel-played.lock")):
        if record.exists():
            fields = json.loads(record.read_text(encoding="utf-8"))
            return SimpleNamespace(**{k: Path(v) if k in _PATHS else v for k, v in fields.items()})
        played = _play(_build_wheel(tmp_path_factory, ci), ci, tmp_path_factory)
        fields = {k: str(v) if k in _PATHS else v for k, v in vars(played).items()}
        partial = shared / "install-wheel-played.part"
        partial.write_text(json.dumps(fields), encoding="utf-8")
        partial.replace(record)
        return played


def test_wheel_installs_in_a_fresh_venv_and_runs_the_suite_from_any_folder(played) -> None:
    """The implementer template's scripts, run in order, install the wheel and pass the suite.

    The kit imports from the new venv (not from this checkout), ``srdh --version`` names the
    version of pyproject.toml, ``srdh run`` names the kit it runs from, the four reports are
    written into the implementer's folder, and the Markdown summary lands in
    ``$GITHUB_STEP_SUMMARY``.
    """
    version, venv = played.version, played.runner_temp / "srdh"
    assert f"srdh {version}" in played.outputs["conformance/Which kit"]
    suite_output = played.outputs["conformance/Conformance suite against the IUT"]
    assert "run PASSED" in suite_output
    assert suite_output.splitlines()[0].startswith(f"kit: srdh-conformance-kit {version} ({venv}")
    where = _sh(
        "python -c 'import conformance as a, contracts as b; print(a.__file__, b.__file__)'",
        cwd=played.workspace,
        env=played.env,
        timeout=60,
    )
    for module_file in where.split():
        assert Path(module_file).is_relative_to(venv), where
    reports = played.workspace / played.env["SRDH_REPORTS"]
    assert sorted(p.name for p in reports.iterdir()) == [
        "junit.xml",
        "report.html",
        "report.json",
        "summary.md",
    ]
    report = json.loads((reports / "report.json").read_text("utf-8"))
    assert report["passed"] is True
    assert report["kit"] == {"name": "srdh-conformance-kit", "version": version}
    assert played.summary.read_text("utf-8") == (reports / "summary.md").read_text("utf-8")


def test_installed_kit_demos_a_scenario_and_gates_a_repository_from_a_subfolder(played) -> None:
    """From the wheel alone: `srdh demo` replays a packaged scenario, and `srdh gate` judges a
    git repository from one of its subfolders with the packaged phase plan."""
    env = dict(played.env)
    repo = played.tmp_path / "spec-repo"
    archive = repo / "openspec" / "changes" / "archive" / "2026-07-21-single-react-design-freeze"
    archive.mkdir(parents=True)
    (archive / "proposal.md").write_text("# stage 0\n", encoding="utf-8")
    (repo / "docs").mkdir()
    env.update(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
        GIT_CONFIG_GLOBAL="/dev/null",
    )
    _sh("git init -q && git add -A && git commit -q -m stage-0", cwd=repo, env=env, timeout=60)

    demo = _sh("srdh demo duplicate-tool-call-id-is-proposed", cwd=repo, env=env, timeout=120)
    kit, spec, first = demo.splitlines()[:3]
    assert kit.startswith("kit: srdh-conformance-kit ")
    assert str(played.runner_temp / "srdh") in kit  # the installed package, not this checkout
    assert spec.startswith("spec: the kit's own (features ")
    assert "mirroring" not in spec  # a wheel carries the features, not the openspec/ they mirror
    assert first.startswith("scenario duplicate-tool-call-id-is-proposed: passed")
    gate = _sh("srdh gate 1", cwd=repo / "docs", env=env, timeout=60)
    assert f"repository: {repo.resolve()}" in gate
    assert "stage 1: allowed" in gate
    assert str(played.runner_temp / "srdh") in gate.splitlines()[0]
