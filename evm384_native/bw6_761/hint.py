"""The prover of ``bw6_761_pairing_check_hinted``, in pure Python: the 288-byte hint t
(c^-1 = 1 + t v, :mod:`.hinted`) for an EIP-3026 pairing input. It computes the contract's
loop value F (the same Miller loops as :meth:`..tower.pairing_k6.MillerLoops.emit`, with
affine points: the same lines up to factors in Fp, so the same F up to a factor in Fp3*,
which the check ignores), then c^-1 = F^E with E = -(lambda^-1 mod N), N = (p^3 + 1) / r,
and t = c1 / c0. Meaningful only if the product of the pairings is one; for any other
input the check rejects whatever hint is sent.

Fp6 values here are lists of six coefficients of 1, w, ..., w^5 (w^6 = xi; the contract's
c_j.c_i is the coefficient of w^(2 i + j))."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..curves.bw6_761 import BW6_761
from ..tower.families import non_adjacent_form
from .hinted import HINT_BYTES, HINT_VALUES
from .points import FP_BYTES, PAIR_BYTES

Fp6 = List[int]
Point = Tuple[int, int]
P, R, X = BW6_761.p, BW6_761.r, BW6_761.x
XI = BW6_761.fp3_nonresidue % P
LAMBDA = (X + 1) + P * (X**3 - X**2 - X)          # the loops' multiple of r
N = (P**3 + 1) // R                               # the order of Fp6*/Fp3* over r
_FROBENIUS = [pow(XI, i * (P - 1) // 6, P) for i in range(6)]   # w^(i p) = w^i xi^...
_ONE: Fp6 = [1, 0, 0, 0, 0, 0]


def _mul(a: Sequence[int], b: Sequence[int]) -> Fp6:
    wide = [0] * 11
    for i, ai in enumerate(a):
        if ai:
            for j, bj in enumerate(b):
                wide[i + j] += ai * bj
    return [(wide[i] + (XI * wide[i + 6] if i < 5 else 0)) % P for i in range(6)]


def _frobenius(a: Sequence[int]) -> Fp6:
    return [ai * gamma % P for ai, gamma in zip(a, _FROBENIUS)]


def _conj(a: Sequence[int]) -> Fp6:
    """a^(p^3): v -> -v (w^(p^3) = -w)."""
    return [ai if i % 2 == 0 else -ai % P for i, ai in enumerate(a)]


def _inverse(a: Sequence[int]) -> Fp6:
    """prod_{j=1..5} a^(p^j) over the norm prod_{j=0..5} a^(p^j), which lies in Fp."""
    others, image = list(_ONE), list(a)
    for _ in range(5):
        image = _frobenius(image)
        others = _mul(others, image)
    norm = _mul(a, others)
    if not norm[0]:
        raise ZeroDivisionError("inverse of zero")
    scale = pow(norm[0], -1, P)
    return [value * scale % P for value in others]


def _pow(a: Sequence[int], exponent: int) -> Fp6:
    out = list(_ONE)
    for bit in bin(exponent)[2:]:
        out = _mul(out, out)
        if bit == "1":
            out = _mul(out, a)
    return out


def _line(t: Point, slope: int, p: Point) -> Fp6:
    """The line through T of this slope (on the twist) at P, times w^3, as the contract's
    l0 + l2 w^2 + l3 w^3: slope xT - yT, -slope xP, yP."""
    return [(slope * t[0] - t[1]) % P, 0, -slope * p[0] % P, p[1], 0, 0]


def _step(t: Point, q: Point, p: Point) -> Tuple[Point, Fp6]:
    """(T + Q, the line through T and Q at P), the tangent if Q = T."""
    if t == q:
        slope = 3 * t[0] * t[0] * pow(2 * t[1], -1, P) % P
    else:
        slope = (q[1] - t[1]) * pow(q[0] - t[0], -1, P) % P
    x3 = (slope * slope - t[0] - q[0]) % P
    return (x3, (slope * (t[0] - x3) - t[1]) % P), _line(t, slope, p)


class _Loops:
    """The contract's Miller loops over the finite pairs: f shared, one T per pair."""

    def __init__(self, pairs: List[Tuple[Point, Point]]) -> None:
        self.pairs, self.t = pairs, [q for _, q in pairs]
        self.f = list(_ONE)

    def add(self, others: Sequence[Point]) -> None:
        for i, ((p, _), other) in enumerate(zip(self.pairs, others)):
            self.t[i], line = _step(self.t[i], other, p)
            self.f = _mul(self.f, line)

    def double(self, square: bool = True) -> None:
        if square:
            self.f = _mul(self.f, self.f)
        self.add(self.t)

    def run(self) -> Fp6:
        qs = [q for _, q in self.pairs]
        self.double(square=False)
        for i, bit in enumerate(bin(X)[3:]):
            if i:
                self.double()
            if bit == "1":
                self.add(qs)
        fx, rs = self.f, list(self.t)                 # f_x, R = [x] Q
        self.add(qs)
        first, self.f, self.t = self.f, fx, list(rs)  # f_{x+1}; T = R
        minus = [(x, -y % P) for x, y in rs]
        for digit in non_adjacent_form(X**2 - X - 1)[1:]:
            self.double()
            if digit:
                self.add(rs if digit > 0 else minus)
                self.f = _mul(self.f, fx if digit > 0 else _conj(fx))
        return _mul(_frobenius(self.f), first)


def _decode(data: bytes) -> List[Tuple[Point, Point]]:
    """The pairs of EIP-3026's input without a point at infinity."""
    if not data or len(data) % PAIR_BYTES:
        raise ValueError(f"the input is k >= 1 pairs of {PAIR_BYTES} bytes, got "
                         f"{len(data)} bytes")
    values = [int.from_bytes(data[i:i + FP_BYTES], "big") for i in range(0, len(data), FP_BYTES)]
    if any(value >= P for value in values):
        raise ValueError("a coordinate is not below p")
    points: List[Optional[Point]] = [None if (x, y) == (0, 0) else (x, y)
                                     for x, y in zip(values[::2], values[1::2])]
    return [(p, q) for p, q in zip(points[::2], points[1::2])
            if p is not None and q is not None]


def loop_value(data: bytes) -> Fp6:
    """F, the contract's Miller loop value of the input ``data`` (up to a factor in
    Fp3*)."""
    pairs = _decode(data)
    return _Loops(pairs).run() if pairs else list(_ONE)


def pairing_hint(data: bytes) -> bytes:
    """The hint for the ``bw6_761_pairing_check`` input ``data`` (k x 384 bytes): t with
    F (1 + t v)^lambda in Fp3* when the product of the pairings is one (t = 0, which the
    check rejects unless there is no finite pair, if c0 = 0). Invalid input (a length or
    a coordinate EIP-3026 rejects; a point off its curve may raise too): ValueError."""
    try:
        c = _pow(loop_value(data), -pow(LAMBDA, -1, N) % N)
    except ZeroDivisionError as error:         # a point off its curve met a vertical line
        raise ValueError(f"not a valid pairing input: {error}") from None
    even = [c[0], 0, c[2], 0, c[4], 0]
    if not any(even):
        return bytes(HINT_BYTES)
    t = _mul([0, c[1], 0, c[3], 0, c[5]], _inverse(even))   # (c1 / c0) v
    return b"".join(t[2 * i + 1].to_bytes(FP_BYTES, "big") for i in range(HINT_VALUES))
