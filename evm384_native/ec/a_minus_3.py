"""Point formulas for the curves y^2 = x^3 - 3x + b (a = -3, as the NIST curves have it),
written once over an ``ops`` object (``mul``, ``add``, ``sub`` of ``(out, a, b)``):
:class:`EmittedOps` emits field code (:mod:`..tower.fp`) through an Emitter, the tests
pass one over Python integers. ``out`` may alias an input in every step.

- :func:`dbl_weighted`: doubling in Jacobian coordinates (x = X/Z^2, y = Y/Z^3) on the
  curve or on an isomorphic one y^2 = x^3 - 3 u^4 x + b u^6 (where a co-Z table is affine
  without an inversion), carrying a weight W = -(3/2) u^4 Z^4 as modified Jacobian
  coordinates carry a Z^4 (Cohen, Miyaji and Ono, ASIACRYPT 1998): dbl-2001-b's
  M = 3 (X^2 - u^4 Z^4), W3 = Y^4 W, the result scaled by 1/2 (Z3 = Y Z): 9 products and 5
  additions, 8 and 5 without W3 (dbl-2001-b: 8 and 13, or 9 and 6 scaled); :func:`weight`
  makes W (3 products, from v = -(3/2) u^4: :func:`weight_factor`). The factor -3/2 in W
  makes M' = (3/2) X^2 + W a sum, where (3/2) (X^2 - u^4 Z^4) takes a subtraction: on
  plain EVM a SUB and a copy of p more (``summed``; without it W = u^4 Z^4, made from u
  itself, as EVMMAX's builds keep it: a subtraction costs what a sum does there).
- :func:`add_mixed`: madd-2004-hmv (EFD) of a Jacobian and an affine point, 11M;
  Z3 = 0 when H = 0 (the points equal or opposite), and then stays 0 (Z3 = Z1 H). With
  a ``z_factor`` u, the accumulator on the isomorphic curve and the point on the curve
  itself (one product more). When H = 0, X3 = R^2: 0 iff the points were equal
  (:mod:`.exceptional` reads that).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from ..asm import Slot
from ..tower import fp
from ..tower.fp import Emitter


class EmittedOps:
    """The formulas' operations as field code emitted through ``e`` (mod its curve's p: a
    contract with a second field context is back in the first when it calls a formula)."""

    def __init__(self, e: Emitter) -> None:
        self.e = e

    def mul(self, out: Slot, a: Slot, b: Slot) -> None:
        fp.mul(self.e, out, a, b)

    def add(self, out: Slot, a: Slot, b: Slot) -> None:
        fp.add(self.e, out, a, b)

    def sub(self, out: Slot, a: Slot, b: Slot) -> None:
        fp.sub(self.e, out, a, b)


def weight_factor(f: Any, v: Any, u: Any, minus_three_halves: Any) -> None:
    """v = -(3/2) u^4, what :func:`weight` needs for the curve of ``u``
    (``minus_three_halves``: the constant -3/2)."""
    f.mul(v, u, u)
    f.mul(v, v, v)
    f.mul(v, v, minus_three_halves)


def weight(f: Any, w: Any, z: Any, factor: Any, summed: bool) -> None:
    """The W of :func:`dbl_weighted` for the point's Z = ``z`` on the curve of u: with
    ``summed`` w = v z^4 = -(3/2) u^4 z^4 for ``factor`` v = -(3/2) u^4
    (:func:`weight_factor`), else w = u^4 z^4 for ``factor`` u."""
    if summed:
        f.mul(w, z, z)
        f.mul(w, w, w)
        f.mul(w, w, factor)
        return
    f.mul(w, z, factor)
    f.mul(w, w, w)
    f.mul(w, w, w)


def dbl_weighted(f: Any, p: Sequence[Any], w: Any, three_halves: Any, t: Sequence[Any],
                 summed: bool, update: bool = True,
                 keep: Optional[Tuple[Any, Any]] = None) -> None:
    """p = 2 p in place on the curve y^2 = x^3 - 3 u^4 x + b u^6 (u = 1: the curve
    itself) given w = -(3/2) u^4 Z^4 (``summed``, else u^4 Z^4: :func:`weight`), the
    result scaled by 1/2 (the same point: (X, Y, Z) ~ (X / 4, Y / 8, Z / 2)):
    M' = (3/2) X^2 + w (summed) or (3/2) (X^2 - w), both (3/2) (X^2 - u^4 Z^4),
    S' = X Y^2, X3 = M'^2 - 2 S', Y3 = M' (S' - X3) - Y^4, Z3 = Y Z and, with ``update``,
    w = Y^4 w (the weight of Z3, for the next doubling). Z = 0 stays 0.
    ``three_halves`` is the constant 3/2; ``t``: four temporaries; ``keep`` = (s, c):
    slots that end holding S' and Y^4, i.e. the old point on Z3 (X Y^2, Y Y^3) when Z was
    1 (the start of a co-Z table)."""
    x, y, z = p
    d, m, g, s = t
    if keep is not None:
        s, g = keep
    f.mul(d, x, x)
    if summed:
        # in this order plain EVM's block compiler made the least stack code of the
        # orders a search tried (bench/README.md: 422 gas less on p256verify than in
        # the order below)
        f.mul(z, y, z)                         # Z3
        f.mul(m, d, three_halves)
        f.mul(g, y, y)
        f.add(m, m, w)                         # M'
        f.mul(s, x, g)                         # S'
        f.mul(g, g, g)                         # Y^4
        if update:
            f.mul(w, w, g)
    else:
        f.sub(d, d, w)
        f.mul(m, d, three_halves)              # M'
        f.mul(g, y, y)
        f.mul(s, x, g)                         # S'
        f.mul(z, y, z)                         # Z3
    f.mul(x, m, m)
    f.sub(x, x, s)
    f.sub(x, x, s)                             # X3
    f.sub(d, s, x)
    f.mul(d, m, d)
    if not summed:
        f.mul(g, g, g)                         # Y^4
    f.sub(y, d, g)                             # Y3
    if update and not summed:
        f.mul(w, w, g)


def add_mixed(f: Any, p: Sequence[Any], q: Sequence[Any], t: Sequence[Any],
              z_factor: Any = None, early_z3: bool = False) -> None:
    """p = p + q in place, q = (x, y) affine (madd-2004-hmv, 11M + 7A): U2 = x Z1^2,
    S2 = y Z1^3, H = U2 - X1, R = S2 - Y1, Z3 = Z1 H, X3 = R^2 - H^3 - 2 X1 H^2,
    Y3 = R (X1 H^2 - X3) - Y1 H^3; ``t``: four temporaries. With ``z_factor`` u, p lives
    on the curve of u (:func:`dbl_weighted`) and q on the curve itself: q there is
    (u^2 x, u^3 y), i.e. Z1 u in place of Z1 in U2 and S2 (one product more); then Z1
    is read no more once Z1 u is made, and ``early_z3`` makes Z3 = Z1 H as soon as H is
    (plain EVM's block compiler drops Z1 from the stack sooner: bench/README.md, 267 gas
    less on p256verify; EVMMAX's code keeps the order below)."""
    x, y, z = p
    x2, y2 = q
    hh, h, r, hhh = t
    zz = z
    if z_factor is not None:
        zz = r
        f.mul(zz, z, z_factor)
    f.mul(hh, zz, zz)
    f.mul(h, x2, hh)
    f.sub(h, h, x)                             # H
    early_z3 = early_z3 and z_factor is not None
    if early_z3:
        f.mul(z, z, h)                         # Z3
    f.mul(hh, hh, zz)
    f.mul(r, y2, hh)
    f.sub(r, r, y)                             # R
    if not early_z3:
        f.mul(z, z, h)                         # Z3 (Z1 = zz read above)
    f.mul(hh, h, h)
    f.mul(hhh, h, hh)
    f.mul(hh, x, hh)                           # V = X1 H^2, X1 read before X3 is written
    f.mul(x, r, r)
    f.sub(x, x, hhh)
    f.sub(x, x, hh)
    f.sub(x, x, hh)                            # X3
    f.sub(hh, hh, x)
    f.mul(hh, r, hh)
    f.mul(hhh, y, hhh)
    f.sub(y, hh, hhh)                          # Y3
