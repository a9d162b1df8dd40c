"""The value every check returns: :class:`CheckResult`, and a collector of findings."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CheckResult", "Findings"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The verdict of one check.

    Attributes:
        passed: whether the observation satisfies the rule.
        message: what was checked when ``passed``; otherwise every broken rule, one per line,
            each naming the event, invocation or JSON pointer and what was expected.
    """

    passed: bool
    message: str

    def require(self) -> None:
        """Raise :class:`AssertionError` carrying :attr:`message` unless the check passed.

        Raises:
            AssertionError: the check failed.
        """
        if not self.passed:
            raise AssertionError(self.message)


@dataclass
class Findings:
    """Collects the broken rules of one check, then turns them into a :class:`CheckResult`."""

    subject: str
    problems: list[str] = field(default_factory=list)

    def expect(self, condition: object, problem: str) -> bool:
        """Record ``problem`` unless ``condition`` is truthy; return the condition as a bool."""
        if not condition:
            self.problems.append(problem)
        return bool(condition)

    def add(self, problem: str) -> None:
        """Record ``problem`` unconditionally."""
        self.problems.append(problem)

    def result(self) -> CheckResult:
        """Return the verdict: passed when no problem was recorded."""
        if self.problems:
            lines = "\n".join(f"  - {problem}" for problem in self.problems)
            return CheckResult(passed=False, message=f"{self.subject}: failed\n{lines}")
        return CheckResult(passed=True, message=f"{self.subject}: holds")
