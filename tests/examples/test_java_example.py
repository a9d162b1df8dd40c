"""The Java example harness (``examples/java``): built with javac alone, judged by the whole suite.

The example is a second, independent implementation of the spec, written from
``docs/implementers.md``, ``docs/contracts.md`` and the schemas (issue 20). These tests build it
with ``javac`` (no build tool, no third-party jar) and run ``srdh run --iut`` against it over
stdio, properties included (``--examples 10`` under the ``ci`` profile, 3 under ``dev``: depth is
the profile's, ``tests/_profile.py``): a conforming harness the kit fails is a false kill.
Skipped, with the install line, only where no JDK exists and ``CI`` is not set; in CI a missing
JDK fails (``.ci/run`` installs ``default-jdk-headless``).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.adapters import StdioAdapter
from conformance.properties import PROPERTIES
from contracts import StrictJSONError, canonical_json, loads_strict
from tests._largest import judged, largest_fixture, means_what_it_says
from tests._profile import depth

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SOURCES = REPO / "examples" / "java" / "src"
FIXTURES = REPO / "conformance" / "fixtures"
MAIN = "dev.srdh.harness.StdioMain"
INSTALL = "apt-get install -y default-jdk-headless"
JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
"""HotSpot tuning for short-lived JVMs: the C1 compiler only (the C2 compiler's work never pays
off in a process that lives seconds) and one GC thread. They change no Java semantics, only how
much CPU the JVM itself burns: about half of ``javac``'s and the example's (the CPU of every JVM
in this module; docs/decisions/test-speed.md, Session 6)."""
JAVAC_FLAGS = tuple(f"-J{flag}" for flag in JVM_FLAGS)


def _jdk() -> tuple[str, str]:
    """Return (javac, java); skip, or fail under CI, when the machine has no JDK."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is not None and java is not None:
        return javac, java
    reason = f"no JDK (javac/java not found): the Java example is untested; {INSTALL}"
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the example must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Compile the example (``make java-example`` does the same into ``examples/java/build``)."""
    javac, _ = _jdk()
    out = tmp_path_factory.mktemp("java-example") / "classes"
    sources = sorted(str(p) for p in SOURCES.rglob("*.java"))
    flags = ["--release", "17", "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(out)]
    done = subprocess.run(  # noqa: S603 - fixed argv
        [javac, *JAVAC_FLAGS, *flags, *sources],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return out


@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    ("stream", "examples"),
    [(False, ["--examples", str(depth(ci=10, dev=3))]), (True, ["--examples", "0"])],
    ids=["json-with-properties", "streamed"],
)
def test_the_java_example_passes_the_whole_suite(
    classes: Path, tmp_path: Path, stream: bool, examples: list[str]
) -> None:
    """`srdh run --iut "java … StdioMain"`: exit 0, every scenario passed.

    With JSON answers the properties run too (``--examples 10``, 3 under ``dev``); with streamed
    answers (``SRDH_JAVA_STREAM=1``: server-sent events, tool call ids in later chunks) every
    Gherkin scenario (``--examples 0``: the properties add nothing the JSON run does not judge).
    """
    _, java = _jdk()
    report = tmp_path / "report"
    iut = shlex.join([java, *JVM_FLAGS, "-cp", str(classes), MAIN])
    env = {**os.environ, "SRDH_JAVA_STREAM": "1" if stream else "0"}
    done = subprocess.run(  # noqa: S603 - fixed argv
        [
            sys.executable,
            "-c",
            "from conformance.cli import main; main()",
            "run",
            "--iut",
            iut,
            *examples,
            "--report",
            str(report),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=840,
        cwd=REPO,
        env=env,
    )
    failures = [line for line in done.stdout.splitlines() if "FAILED" in line or "failed:" in line]
    assert done.returncode == 0, "\n".join([*failures, done.stderr[-4000:]])
    result = json.loads((report / "report.json").read_text(encoding="utf-8"))
    assert result["iut"]["name"] == "srdh-java-example"
    assert result["passed"] is True
    assert result["failures"] == []
    assert result["compliance"]["MUST"]["failed"] == 0
    assert result["compliance"]["MUST"]["not_tested"] == 0
    scenarios = [s for r in result["requirements"].values() for s in r["scenarios"].values()]
    assert all(s["status"] == "PASSED" for s in scenarios), [
        s["name"] for s in scenarios if s["status"] != "PASSED"
    ]
    # Each property's spec scenario is a plain scenario (one Gherkin example), and its property
    # adds exactly ``--examples`` examples to its count: the properties ran, at that depth.
    ran = int(examples[1])
    counts = {
        scenario_id: scenario["examples"]
        for requirement in result["requirements"].values()
        for scenario_id, scenario in requirement["scenarios"].items()
    }
    assert {s: counts.get(s) for s in PROPERTIES} == dict.fromkeys(PROPERTIES, 1 + ran)


CANONICAL_SAMPLES = [
    "1.0",
    "1e21",
    "1e20",
    "1e-7",
    "1e-6",
    "0.1",
    "-0.0",
    "5e-324",
    "1.7976931348623157e308",
    "1E2",
    "123.456e10",
    "0.30000000000000004",
    "-9007199254740991",
    '{"b":1,"a":{"d":[],"c":null},"\\ue000":true,"\\ud83d\\ude00":false}',
    '"\\u0001\\u001f\\t\\n\\"\\\\/\\u00e9\\ud83d\\ude00\\u2028"',
    '[1,2.50,"a",{"z":[],"y":{}}]',
]
REFUSED_SAMPLES = [
    "01",
    "1.",
    ".5",
    "NaN",
    "[1,]",
    '{"a":1,"a":2}',
    '"\\ud800"',
    '"\\udc00x"',
    '"a\x01"',
    "[1] x",
    "1e999",
    "[" * 70 + "]" * 70,
]


def _java_json(classes: Path, lines: list[str]) -> list[str]:
    _, java = _jdk()
    done = subprocess.run(  # noqa: S603 - fixed argv
        [java, *JVM_FLAGS, "-cp", str(classes), "dev.srdh.harness.Json"],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=60,
    )
    return done.stdout.split("\n")[:-1]  # LF only: U+2028 in a canonical string is no line end


def test_the_java_canonical_json_is_rfc_8785(classes: Path) -> None:
    """The example's canonical form (the snapshot digest's input) is the kit's, byte for byte."""
    answers = _java_json(classes, CANONICAL_SAMPLES)
    assert len(answers) == len(CANONICAL_SAMPLES)
    for sample, answer in zip(CANONICAL_SAMPLES, answers, strict=True):
        expected = canonical_json(loads_strict(sample)).decode("utf-8")
        assert answer == f"ok {expected}", sample


def test_the_java_reader_refuses_what_the_kit_refuses(classes: Path) -> None:
    """Leading zeros, NaN, duplicate names, lone surrogates, control characters, deep nesting."""
    for sample in REFUSED_SAMPLES:
        with pytest.raises(StrictJSONError):  # the kit's reader refuses each sample too
            loads_strict(sample)
    answers = _java_json(classes, REFUSED_SAMPLES)
    assert len(answers) == len(REFUSED_SAMPLES)
    pairs = zip(REFUSED_SAMPLES, answers, strict=True)
    assert [sample for sample, answer in pairs if not answer.startswith("refused ")] == []


def test_the_java_example_names_a_script_error_once(classes: Path) -> None:
    """A fixture whose tool script is missing: the observation's error carries its code in
    ``code`` and the message does not repeat it (it read "SCRIPT_EXHAUSTED: SCRIPT_EXHAUSTED: …",
    found by a new user in session 5)."""
    _, java = _jdk()
    fixture = json.loads((FIXTURES / "draft-contains-an-analysis-item.json").read_text("utf-8"))
    fixture["tools"] = {}
    adapter = StdioAdapter([java, *JVM_FLAGS, "-cp", str(classes), MAIN])
    try:
        observation = adapter.run(fixture)
    finally:
        adapter.close()
    error = observation["error"]
    assert error["code"] == "SCRIPT_EXHAUSTED"
    assert error["message"].startswith("no script for tool search_logs")


def test_the_java_example_asks_the_agent_after_its_last_budgeted_step(classes: Path) -> None:
    """``max_steps`` 1 and one tool step: the agent is asked again and its draft is released.

    Each ``tool_calls`` turn is one step (docs/contracts.md, "Agent steps"); the example once
    counted every agent call as a step, so a draft after the last budgeted tool step was never
    asked for (false-kills-8, F2: SCRIPT_UNCONSUMED, no EVIDENCE_VALIDATION).
    """
    from conformance import checks  # noqa: PLC0415 - only this test judges a Run

    _, java = _jdk()
    fixture = json.loads((FIXTURES / "draft-contains-an-analysis-item.json").read_text("utf-8"))
    fixture["limits"]["max_steps"] = 1
    adapter = StdioAdapter([java, *JVM_FLAGS, "-cp", str(classes), MAIN])
    try:
        observation = adapter.run(fixture)
    finally:
        adapter.close()
    assert "error" not in observation, observation.get("error")
    assert observation["published_result"]["kind"] == "DIAGNOSIS_DRAFT"
    checks.check_global_invariants(observation, fixture).require()


def test_the_java_example_takes_every_unbounded_integer_at_its_largest(classes: Path) -> None:
    """Every unbounded integer of the fixture at 2**53 - 1 (tests/_largest.py): the Run passes
    every check and means what it says (docs/decisions/extreme-limits-11.md)."""
    _, java = _jdk()
    adapter = StdioAdapter([java, *JVM_FLAGS, "-cp", str(classes), MAIN], 60.0)
    try:
        means_what_it_says(judged(adapter, largest_fixture()))
    finally:
        adapter.close()
