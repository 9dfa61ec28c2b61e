"""Rounds that run every contender once, in turn, so that all see the same load: what the
interleaved benchmarks keep in extra_info["interleaved"] (``bench/report.py`` tabulates it)."""
from __future__ import annotations

import statistics
import time
from typing import Callable, Dict, List, Tuple


def in_turn(runs: Dict[str, Callable[[], object]]
            ) -> Tuple[Callable[[], None], Dict[str, List[float]]]:
    """A round that calls every run once, in turn, each required to return True, and the
    times it appends per label."""
    times: Dict[str, List[float]] = {label: [] for label in runs}

    def one_round() -> None:
        for label, run in runs.items():
            start = time.perf_counter()
            assert run() is True
            times[label].append(time.perf_counter() - start)
    return one_round, times


def summary(times: Dict[str, List[float]], baseline: str, rounds: int, per: int = 1
            ) -> Dict[str, dict]:
    """Each contender's minimum and median time over its last ``rounds`` rounds (those
    before are warm-up), of one of ``per`` operations a round, and their ratios to
    ``baseline``'s."""
    times = {label: t[-rounds:] for label, t in times.items()}
    base_min = min(times[baseline]) / per
    base_median = statistics.median(times[baseline]) / per
    rows = {}
    for label, t in times.items():
        low, middle = min(t) / per, statistics.median(t) / per
        rows[label] = {"min": low, "median": middle, "rounds": len(t),
                       "min ratio": low / base_min, "median ratio": middle / base_median}
    return rows
