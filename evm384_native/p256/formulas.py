"""The point formulas of the contract, written once over an ``ops`` object (``mul``,
``add``, ``sub`` of ``(out, a, b)``): :class:`.contract` passes one that emits EVMMAX
code, the tests one over Python integers. ``out`` may alias an input in every step.

- :func:`add_complete`: Renes, Costello and Batina, "Complete addition formulas for prime
  order elliptic curves" (EUROCRYPT 2016), algorithm 4 (a = -3, homogeneous projective
  X/Z, Y/Z): correct for every pair of points, infinity (0 : 1 : 0) included; 12M, 2 by b.
- :func:`dbl_jacobian`: dbl-2001-b (EFD, Jacobian x = X/Z^2, y = Y/Z^3, a = -3):
  3M + 5S; on infinity (Z = 0) it gives Z = 0.
- :func:`add_mixed`: madd-2007-bl (EFD) of a Jacobian and an affine point, 7M + 4S;
  Z3 = 0 when H = 0 (the points equal or opposite), and then stays 0 (Z3 = Z1 H).
"""
from __future__ import annotations

from typing import Any, Sequence


def add_complete(f: Any, out: Sequence[Any], p: Sequence[Any], q: Sequence[Any],
                 b: Any, t: Sequence[Any]) -> None:
    """out = p + q, (X, Y, Z) each; ``t``: five temporaries, ``out`` apart from p and q
    (it is written before they are last read)."""
    x1, y1, z1 = p
    x2, y2, z2 = q
    x3, y3, z3 = out
    t0, t1, t2, t3, t4 = t
    f.mul(t0, x1, x2); f.mul(t1, y1, y2); f.mul(t2, z1, z2)
    f.add(t3, x1, y1); f.add(t4, x2, y2); f.mul(t3, t3, t4)
    f.add(t4, t0, t1); f.sub(t3, t3, t4); f.add(t4, y1, z1)
    f.add(x3, y2, z2); f.mul(t4, t4, x3); f.add(x3, t1, t2)
    f.sub(t4, t4, x3); f.add(x3, x1, z1); f.add(y3, x2, z2)
    f.mul(x3, x3, y3); f.add(y3, t0, t2); f.sub(y3, x3, y3)
    f.mul(z3, b, t2); f.sub(x3, y3, z3); f.add(z3, x3, x3)
    f.add(x3, x3, z3); f.sub(z3, t1, x3); f.add(x3, t1, x3)
    f.mul(y3, b, y3); f.add(t1, t2, t2); f.add(t2, t1, t2)
    f.sub(y3, y3, t2); f.sub(y3, y3, t0); f.add(t1, y3, y3)
    f.add(y3, t1, y3); f.add(t1, t0, t0); f.add(t0, t1, t0)
    f.sub(t0, t0, t2); f.mul(t1, t4, y3); f.mul(t2, t0, y3)
    f.mul(y3, x3, z3); f.add(y3, y3, t2); f.mul(x3, t3, x3)
    f.sub(x3, x3, t1); f.mul(z3, t4, z3); f.mul(t1, t3, t0)
    f.add(z3, z3, t1)
