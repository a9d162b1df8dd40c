"""The value every check returns: :class:`CheckResult`, and a collector of findings.

Every finding names a rule id of :mod:`conformance.checks._rules`; the message line reads
``[<rule id>] <problem>`` and :attr:`CheckResult.rules` lists the ids broken.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conformance.checks._rules import rule as _known_rule

__all__ = ["CheckResult", "Findings"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The verdict of one check.

    Attributes:
        passed: whether the observation satisfies the rule.
        message: what was checked when ``passed``; otherwise every broken rule, one per line,
            each naming the event, invocation or JSON pointer and what was expected.
        rules: the rule ids broken (empty when ``passed``), in first-seen order.
    """

    passed: bool
    message: str
    rules: tuple[str, ...] = ()

    def require(self) -> None:
        """Raise :class:`AssertionError` carrying :attr:`message` unless the check passed.

        Raises:
            AssertionError: the check failed.
        """
        if not self.passed:
            raise AssertionError(self.message)


@dataclass
class Findings:
    """Collects the broken rules of one check, then turns them into a :class:`CheckResult`.

    Attributes:
        subject: what the check verifies, for the message.
        rule: the rule id a finding names unless it names its own.
        problems: ``(rule id, problem)`` pairs recorded so far.

    Raises:
        KeyError: (at construction or when recording) a rule id that is not registered.
    """

    subject: str
    rule: str
    problems: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Reject an unregistered default rule id at once."""
        _known_rule(self.rule)

    def expect(self, condition: object, problem: str, *, rule: str | None = None) -> bool:
        """Record ``problem`` under ``rule`` (default: :attr:`rule`) unless ``condition`` holds.

        Returns:
            The condition as a bool.
        """
        if not condition:
            self.add(problem, rule=rule)
        return bool(condition)

    def add(self, problem: str, *, rule: str | None = None) -> None:
        """Record ``problem`` under ``rule`` (default: :attr:`rule`) unconditionally."""
        rule_id = self.rule if rule is None else _known_rule(rule).id
        self.problems.append((rule_id, problem))

    def result(self) -> CheckResult:
        """Return the verdict: passed when no problem was recorded."""
        if self.problems:
            lines = "\n".join(f"  - [{rule_id}] {problem}" for rule_id, problem in self.problems)
            rules = tuple(dict.fromkeys(rule_id for rule_id, _ in self.problems))
            message = f"{self.subject}: failed\n{lines}"
            return CheckResult(passed=False, message=message, rules=rules)
        return CheckResult(passed=True, message=f"{self.subject}: holds")
