"""Rounds that run every contender once, in turn, so that all see the same load: what the
interleaved benchmarks keep in extra_info["interleaved"] (``bench/report.py`` tabulates it)."""
from __future__ import annotations

import statistics
from typing import Dict, List


def summary(times: Dict[str, List[float]], baseline: str, per: int = 1) -> Dict[str, dict]:
    """Each contender's minimum and median time (of one of ``per`` operations a round) and
    their ratios to ``baseline``'s."""
    base_min = min(times[baseline]) / per
    base_median = statistics.median(times[baseline]) / per
    rows = {}
    for label, t in times.items():
        low, middle = min(t) / per, statistics.median(t) / per
        rows[label] = {"min": low, "median": middle, "rounds": len(t),
                       "min ratio": low / base_min, "median ratio": middle / base_median}
    return rows
