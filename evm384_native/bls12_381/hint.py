"""The prover of the hinted pairing check: t with c^-1 = c0 (1 + t w) for :mod:`.hinted`,
computed by an EVM384 program (this package's Miller loop and field tower) that runs on an
engine.

For f = the Miller loop value NOT conjugated (the hinted contract's), h = (p^12 - 1) / r,
PF = (1 - x) / 3 and h = 27 PF h3 (gcd(h3, 27 PF) = 1):

    w = f^(h3 s),  s = -h3^-1 mod 27 PF     (the inverse of f's 27 PF-part: in Fp3, so in Fp6)
    c = (f w)^e,   e = lambda^-1 mod h3     (f w has order dividing h3, coprime to lambda)

so f w = c^lambda whenever f^h = 1 (the product of the pairings is one). c^-1 is a power
of f, and its exponent may be taken mod h: the program computes c^-1 = f^E_CINV as a product of Frobenius images f^(p^i) raised to the 12 base-p
digits of the exponent (381 squarings instead of 4,300), with sliding windows over a
shared table of odd powers; then t = c1 / c0 for c^-1 = c0 + c1 w (w itself is not sent:
:mod:`.hinted` says why). For a false relation the hint is meaningless and the check
rejects it, as it rejects any hint.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, List, Sequence, Tuple

from ..asm import Assembler, Fp12, Program, array
from ..asm.layout import FP_BYTES
from ..curves.bls12_381 import BLS12_381
from ..tower import fp, fp6, fp12
from ..tower.fp import Emitter
from ..tower.pairing import MillerLoop
from .hinted import HINT_BYTES, Hint
from .raw_pairs import pairs_calldata

P, R, X = BLS12_381.p, BLS12_381.r, BLS12_381.x
H = (P ** 12 - 1) // R
LAMBDA = P - X                                    # p + |x| = 3 PF^2 r
PF = (1 - X) // 3
H3 = H // (27 * PF)
S = -pow(H3, -1, 27 * PF) % (27 * PF)
E_CINV = -(1 + H3 * S) * pow(LAMBDA, -1, H3) % H
DIGITS = 12                                       # base-p digits of an exponent mod h
WINDOW = 5                                        # sliding-window width: 16 odd powers


def windows(digit: int, width: int = WINDOW) -> List[Tuple[int, int]]:
    """(bit position, odd value) of a left-to-right sliding-window split of ``digit``:
    digit = sum(value << position)."""
    out, position = [], digit.bit_length() - 1
    while position >= 0:
        if not digit >> position & 1:
            position -= 1
            continue
        low = max(position - width + 1, 0)
        while not digit >> low & 1:
            low += 1
        out.append((low, (digit >> low) & ((1 << (position - low + 1)) - 1)))
        position = low - 1
    return out


def _steps(exponent: int) -> Dict[int, List[Tuple[int, int]]]:
    """bit position -> [(Frobenius power i, odd value)] of f^exponent as a product of
    (f^(p^i))^(digit i)."""
    steps: Dict[int, List[Tuple[int, int]]] = {}
    for i in range(DIGITS):
        for position, value in windows(exponent // P ** i % P):
            steps.setdefault(position, []).append((i, value))
    return steps


def _power(e: Emitter, acc: Fp12, tables: Sequence, exponent: int) -> None:
    """acc = f^exponent, tables[i].e_j holding (f^(p^i))^(2j + 1)."""
    sqr = fp12.routine(e, "fp12_sqr", "hint_sqr", a=acc)
    mul = fp12.routine(e, "fp12_mul", "hint_mul", a=acc)
    steps = _steps(exponent)
    started = False
    for position in range(max(steps), -1, -1):
        if started:
            e.asm.call(sqr)
        for i, value in steps.get(position, []):
            entry = getattr(tables[i], f"e{value // 2}")
            if started:
                fp.call(e, mul, {}, b=entry)
            else:
                fp.copy(e, acc, entry)
                started = True


def _build(e: Emitter) -> None:
    asm = e.asm
    region = asm.memory.region("hint_prover")
    f = region.alloc(Fp12, "f")
    acc = region.alloc(Fp12, "acc")
    out = region.alloc(Hint, "out")
    tables = [region.alloc(array(Fp12, 1 << (WINDOW - 1)), f"frob{i}") for i in range(DIGITS)]
    loop = MillerLoop(e, f)
    loop.load()
    loop.emit()
    fp12.conj(e, f, f)                            # the hinted check's f is not conjugated
    with asm.scope("odd_powers"):
        first = tables[0]
        fp.copy(e, first.e0, f)
        fp12.call(e, "fp12_sqr", acc, a=f)
        for j in range(1, 1 << (WINDOW - 1)):
            fp12.call(e, "fp12_mul", getattr(first, f"e{j}"), a=getattr(first, f"e{j - 1}"),
                      b=acc)
    frob = asm.subroutine("hint_frob", lambda asm, a: fp12.frobenius(e, a, a, 1), {"a": Fp12})
    with asm.scope("frobenius_powers"):
        # the first one inline: it creates the constants, which must exist before
        # e.finish(); the subroutine's body is emitted later, at assembly
        fp12.frobenius(e, tables[1].e0, tables[0].e0, 1)
        for i in range(1, DIGITS):
            for j in range(1 if i == 1 else 0, 1 << (WINDOW - 1)):
                fp.call(e, frob, {"a": getattr(tables[i], f"e{j}")},
                        a=getattr(tables[i - 1], f"e{j}"))
    with asm.scope("cinv"):
        _power(e, acc, tables, E_CINV)
    with asm.scope("t"):                          # t = c1 / c0 (0 if c0 = 0)
        fp6.inverse(e, f.c0, acc.c0)
        fp6.mul(e, f.c1, acc.c1, f.c0)
    for value, source in zip(out.t.fps(), f.c1.fps()):
        fp.from_montgomery(e, value, source)
    asm.push(HINT_BYTES)
    asm.push(out)
    asm.op("RETURN")


@lru_cache(maxsize=None)
def build_prover() -> Program:
    """The prover program: calldata as ``pairing_product_is_one``'s, output the hint."""
    asm = Assembler("pairing_hint")
    e = Emitter(asm, BLS12_381, compact=False)
    _build(e)
    e.finish()
    return asm.assemble()


def prover_gas(pairs: int) -> int:
    """Enough gas for the prover under every schedule: evmone-v7 (the most expensive)
    charges ~9.4M plus ~0.29M per pair."""
    return 12_000_000 + 500_000 * pairs


def pairing_hint(pairs: Sequence[Tuple[bytes, bytes]], **execute_options: Any) -> bytes:
    """The 288-byte hint (t, c^-1 = c0 (1 + t w)) of ``pairing_check_hinted`` for ``pairs`` (as for
    ``pairing_product_is_one``; pairs with a point at infinity are skipped, as the contracts
    skip them). Runs on the fast engine unless ``engine`` says otherwise; takes ``execute``'s
    options. Meaningful only if the product of the pairings is one."""
    from .. import execute
    pairs = list(pairs)
    if not pairs:
        raise ValueError("at least one pair is needed")
    options: Dict[str, Any] = {"engine": "fast", "gas": prover_gas(len(pairs)),
                               **execute_options}
    result = execute(build_prover().code, pairs_calldata(pairs), **options)
    if not result.success:
        raise RuntimeError(f"pairing hint program failed: {result.error}")
    # the program's values are little-endian (EVM384 memory); the hint's big-endian
    return b"".join(result.output[i:i + FP_BYTES][::-1]
                    for i in range(0, len(result.output), FP_BYTES))
