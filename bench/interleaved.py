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


def in_batches(runs: Dict[str, Callable[[], object]], batch: int
               ) -> Tuple[Callable[[], None], Dict[str, List[List[float]]]]:
    """A round that calls every run ``batch`` times in a row, in turn (each call required to
    return True and timed alone), and the batches of times it appends per label: a state
    that flips between calls (a cache, the allocator) shows as batch medians apart, and
    one the machine imposes shows in every contender's batches of the same round."""
    batches: Dict[str, List[List[float]]] = {label: [] for label in runs}

    def one_round() -> None:
        for label, run in runs.items():
            times = []
            for _ in range(batch):
                start = time.perf_counter()
                assert run() is True
                times.append(time.perf_counter() - start)
            batches[label].append(times)
    return one_round, batches


def batch_summary(batches: Dict[str, List[List[float]]], baseline: str) -> Dict[str, dict]:
    """Per contender: its batch medians, their spread (largest over smallest), and the
    ratio to ``baseline``'s median in the same round, per round and its min and median."""
    medians = {label: [statistics.median(times) for times in rounds]
               for label, rounds in batches.items()}
    rows = {}
    for label, own in medians.items():
        ratios = [mine / base for mine, base in zip(own, medians[baseline])]
        rows[label] = {"batch medians": own, "spread": max(own) / min(own),
                       "ratios": ratios, "min ratio": min(ratios),
                       "median ratio": statistics.median(ratios)}
    return rows
