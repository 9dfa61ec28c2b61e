"""Non-negative least squares (Lawson and Hanson, "Solving Least Squares Problems", 1974,
chapter 23) and the coefficient of determination, in numpy alone: the package does not
depend on scipy (the tests check this against ``scipy.optimize.nnls``)."""
from __future__ import annotations

from typing import Tuple

import numpy as np


def nnls(a: np.ndarray, b: np.ndarray, max_iterations: int = 0) -> Tuple[np.ndarray, float]:
    """x >= 0 minimising ||a x - b||, and that norm. ``max_iterations`` (default 3 n)
    bounds the inner loop, as in scipy; reaching it raises RuntimeError."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.ndim != 2 or b.shape != (a.shape[0],):
        raise ValueError(f"nnls needs an (m, n) matrix and m values, got {a.shape} and {b.shape}")
    m, n = a.shape
    limit = max_iterations or 3 * n
    # what counts as zero: the gradient's rounding error on this matrix
    tolerance = 10 * np.finfo(float).eps * max(m, n) * max(1.0, np.abs(a).sum(axis=0).max(initial=0))
    x = np.zeros(n)
    passive = np.zeros(n, dtype=bool)       # the variables free to be positive (set P)
    gradient = a.T @ (b - a @ x)
    iterations = 0
    while True:
        joining = ~passive & (gradient > tolerance)
        if not joining.any():
            break
        # the zero variable whose increase lowers the residual the most joins P
        j = int(np.argmax(np.where(joining, gradient, -np.inf)))
        passive[j] = True
        trial = _least_squares_on(a, b, passive)
        if trial[j] <= 0:
            # its column depends on P's (rounding made its gradient look positive): it
            # cannot join; left out until x moves (Lawson and Hanson's test of z_j)
            passive[j] = False
            gradient[j] = 0.0
            continue
        while (trial[passive] < 0).any():
            iterations += 1
            if iterations > limit:
                raise RuntimeError(f"nnls: no solution within {limit} iterations")
            # step from x towards the trial as far as x stays non-negative; the variables
            # that reach zero leave P
            blocking = passive & (trial < 0)
            step = np.min(x[blocking] / (x[blocking] - trial[blocking]))
            x = x + step * (trial - x)
            passive &= x > tolerance
            x[~passive] = 0.0
            trial = _least_squares_on(a, b, passive)
        x = trial
        gradient = a.T @ (b - a @ x)
    return x, float(np.linalg.norm(a @ x - b))


def _least_squares_on(a: np.ndarray, b: np.ndarray, passive: np.ndarray) -> np.ndarray:
    """The unconstrained least-squares solution on the columns of P, zero elsewhere."""
    solution = np.zeros(a.shape[1])
    solution[passive] = np.linalg.lstsq(a[:, passive], b, rcond=None)[0]
    return solution


def r_squared(observed: np.ndarray, predicted: np.ndarray) -> float:
    """1 - SS_res / SS_tot: the share of the observations' variance the fit explains."""
    observed = np.asarray(observed, dtype=float)
    residual = float(np.sum((observed - np.asarray(predicted, dtype=float)) ** 2))
    total = float(np.sum((observed - observed.mean()) ** 2))
    if total == 0.0:
        return 1.0 if residual == 0.0 else 0.0
    return 1.0 - residual / total
