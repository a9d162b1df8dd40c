"""The measurement primitives: summaries, interleaving order, paired ratios."""

import pytest

from bench import Summary, interleave, paired_ratios, timed_ns


def test_summary_gives_median_and_inclusive_quartiles():
    """Summary.of([1..5]) has median 3 and quartiles 2 and 4 (inclusive method)."""
    summary = Summary.of([5.0, 1.0, 4.0, 2.0, 3.0])
    assert (summary.median, summary.q1, summary.q3, summary.n) == (3.0, 2.0, 4.0, 5)
    assert summary.iqr == 2.0


def test_summary_of_one_value_is_that_value():
    """A single measurement is its own median and quartiles, with zero spread."""
    summary = Summary.of([7.0])
    assert (summary.median, summary.q1, summary.q3, summary.iqr) == (7.0, 7.0, 7.0, 0.0)


def test_summary_of_nothing_is_an_error():
    """Summarising zero measurements raises ValueError instead of inventing a number."""
    with pytest.raises(ValueError, match="zero measurements"):
        Summary.of([])


def test_scaled_summary_multiplies_every_statistic():
    """Scaling converts units: every statistic is multiplied, the count is kept."""
    scaled = Summary.of([1000.0, 2000.0, 3000.0]).scaled(1e-3)
    assert (scaled.median, scaled.q1, scaled.q3, scaled.n) == (2.0, 1.5, 2.5, 3)


def test_interleave_alternates_the_order_each_round_and_drops_warmup():
    """Round i runs A then B when i is even, B then A when odd; warm-up values are discarded."""
    calls: list[str] = []

    def contender(name: str):
        def measure() -> float:
            calls.append(name)
            return float(len(calls))

        return measure

    values = interleave({"A": contender("A"), "B": contender("B")}, rounds=2, warmup=1)
    assert calls == ["A", "B", "B", "A", "A", "B"]
    assert values == {"A": [4.0, 5.0], "B": [3.0, 6.0]}


@pytest.mark.parametrize(("rounds", "warmup"), [(0, 1), (1, -1)])
def test_interleave_refuses_empty_or_negative_rounds(rounds, warmup):
    """Zero measured rounds or a negative warm-up is a caller mistake named in the error."""
    with pytest.raises(ValueError, match="rounds must be >= 1"):
        interleave({"A": lambda: 1.0}, rounds=rounds, warmup=warmup)


def test_paired_ratios_divide_round_by_round():
    """Each ratio pairs the subject and baseline values of the same round."""
    assert paired_ratios([2.0, 9.0], [4.0, 3.0]) == [0.5, 3.0]


def test_paired_ratios_refuse_unpaired_or_zero_baselines():
    """Different lengths or a non-positive baseline cannot give a ratio."""
    with pytest.raises(ValueError, match="cannot pair"):
        paired_ratios([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="not positive"):
        paired_ratios([1.0], [0.0])


def test_timed_ns_runs_the_action_once_and_returns_a_duration():
    """timed_ns calls its action exactly once and returns a non-negative integer of ns."""
    calls: list[int] = []
    elapsed = timed_ns(lambda: calls.append(1))
    assert calls == [1]
    assert isinstance(elapsed, int)
    assert elapsed >= 0
