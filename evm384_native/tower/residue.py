"""The residue-witness pairing check (Novakovic and Eagen, "On Proving Pairings", eprint
2024/640), written once for every family: the check the hinted contracts run after their
Miller loop, and the program that computes the hint.

With lambda = m r the family's multiple of r whose powering the Miller loop gets almost
for free (BLS12: p - x; BN: 6x + 2 + p - p^2 + p^3), the product of the pairings is one
iff the Miller loop value f times cinv^lambda lies in Fp6* for some cinv = 1 + t w (t in
Fp6, the hint). The Miller loop folds cinv^n in (n its parameter, :meth:`MillerLoop.emit`);
the rest of lambda, the Frobenius images of cinv (or of c' = 1 - t w, which is cinv^-1
times an Fp6 value), is the family's ``hint_frobenius``: (sign, n) per factor. Sound: if
Y = f cinv^lambda s (s in Fp6*) lies in Fp6*, then f^h = 1 for h = (p^12 - 1) / r, since
(p^6 - 1) | h and r h = p^12 - 1; so no t passes a false relation. Complete: the prover's
cinv = f^E for an exponent E of the family (the quotient group Fp12*/Fp6* has order
p^6 + 1, and f's image there is a lambda-th power), normalised to t = c1 / c0.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence, Tuple

from ..asm import Fp6, Fp12, Slot, array
from . import fp, fp6, fp12
from .compare import push_equal
from .families import family_of
from .fp import Emitter
from .pairing import MillerLoop, mul_by_one_plus

WINDOW = 5                                        # sliding-window width: 16 odd powers


def push_accepted(e: Emitter, f: Fp12, t: Fp6) -> None:
    """Push 1 iff Y = F * (the family's Frobenius images of 1 +- t w) lies in Fp6*, for
    F = f from the hinted Miller loop: t' = t^(p^n) in place, one Frobenius map at a time
    (n rises); all but the last image multiply F (the loop's product by 1 + t w); of the
    last, 1 + t' w, only Y.c1 = F.c1 + F.c0 t' is needed, and Y in Fp6* iff Y.c1 = 0 and
    F.c0 != 0 (then Y.c0 = F.c0 (1 - t'^2 v), and t'^2 v = 1 is impossible: v is not a
    square in Fp6). Where the family's ``residue_w_class`` says so, Y in w Fp6* is accepted
    too (Y.c0 = F.c0 + F.c1 t' v = 0, Y.c1 != 0): exactly one of Y.c0, Y.c1 is zero. Sound
    as well: (w s)^h = v^(h/2) s^h = 1 for s in Fp6*, as (p^6 - 1) divides h / 2.
    Overwrites t."""
    family = family_of(e.curve)
    *products, (last_sign, last_n) = family.hint_frobenius(e.curve)
    with e.asm.scope("hint_check"):
        power = 0
        for sign, n in products + [(last_sign, last_n)]:
            for _ in range(n - power):
                fp12.frobenius_of_one_plus(e, t, t, 1)
            power = n
            if (sign, n) != (last_sign, last_n):
                mul_by_one_plus(e, f, t, sign)
        if last_sign < 0:
            fp6.neg(e, t, t)
        with e.asm.temps(Fp6) as (y1,):
            fp6.mul(e, y1, f.c0, t)
            fp6.add(e, y1, y1, f.c1)
            zero = e.const(Fp6, "fp6_zero", [0] * 6)
            push_equal(e, zero, y1)
            if not family.residue_w_class(e.curve):
                push_equal(e, zero, f.c0)
                e.asm.ops("ISZERO", "AND")        # Y.c1 = 0 and F.c0 != 0
                return
            with e.asm.temps(Fp6) as (y0,):        # Y.c0 = F.c0 + v (F.c1 t')
                fp6.mul(e, y1, f.c1, t)
                fp6.add_mul_by_v(e, y0, f.c0, y1)
                push_equal(e, zero, y0)
            e.asm.op("XOR")                       # exactly one of Y.c1, Y.c0 is zero


# --- the prover ---------------------------------------------------------------------------

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


def _steps(exponent: int, p: int, digits: int) -> Dict[int, List[Tuple[int, int]]]:
    """bit position -> [(Frobenius power i, odd value)] of f^exponent as a product of
    (f^(p^i))^(digit i), for the ``digits`` base-p digits of the exponent."""
    steps: Dict[int, List[Tuple[int, int]]] = {}
    for i in range(digits):
        for position, value in windows(exponent // p ** i % p):
            steps.setdefault(position, []).append((i, value))
    return steps


def _power(e: Emitter, acc: Fp12, tables: Sequence, exponent: int, digits: int) -> None:
    """acc = f^exponent, tables[i].e_j holding (f^(p^i))^(2j + 1)."""
    sqr = fp12.routine(e, "fp12_sqr", "hint_sqr", a=acc)
    mul = fp12.routine(e, "fp12_mul", "hint_mul", a=acc)
    steps = _steps(exponent, e.curve.p, digits)
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


def emit_prover(e: Emitter, load: Callable[[MillerLoop], None], out_kind: type,
                write_out: Callable[[Fp6, Slot], None], g1_may_be_infinity: bool = False
                ) -> None:
    """The prover: the Miller loop of the pairs ``load`` reads (not conjugated, as the
    hinted check's), c^-1 = f^E (E the family's ``hint_exponent``) from the Frobenius
    images of f raised to E's base-p digits (sliding windows over shared tables of odd
    powers), then t = c1 / c0 for c^-1 = c0 + c1 w (0 if c0 = 0, which the check
    rejects), written by ``write_out(t, out)`` into a slot of ``out_kind`` and RETURNed.
    ``g1_may_be_infinity``: as for the contract's :class:`MillerLoop`."""
    asm = e.asm
    exponent, digits = family_of(e.curve).hint_exponent(e.curve)
    region = asm.memory.region("hint_prover")
    f = region.alloc(Fp12, "f")
    acc = region.alloc(Fp12, "acc")
    out = region.alloc(out_kind, "out")
    tables = [region.alloc(array(Fp12, 1 << (WINDOW - 1)), f"frob{i}") for i in range(digits)]
    loop = MillerLoop(e, f, g1_may_be_infinity=g1_may_be_infinity)
    load(loop)
    loop.emit()
    if e.curve.x < 0:
        fp12.conj(e, f, f)                        # the hinted check's f is not conjugated
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
        for i in range(1, digits):
            for j in range(1 if i == 1 else 0, 1 << (WINDOW - 1)):
                fp.call(e, frob, {"a": getattr(tables[i], f"e{j}")},
                        a=getattr(tables[i - 1], f"e{j}"))
    with asm.scope("cinv"):
        _power(e, acc, tables, exponent, digits)
    with asm.scope("t"):                          # t = c1 / c0 (0 if c0 = 0)
        fp6.inverse(e, f.c0, acc.c0)
        fp6.mul(e, f.c1, acc.c1, f.c0)
    write_out(f.c1, out)
    asm.push(out.size)
    asm.push(out)
    asm.op("RETURN")


def prover_gas(pairs: int) -> int:
    """Enough gas for a prover program of ``pairs`` pairs under every schedule (evmone-v7,
    the most expensive, charges BLS12-381's ~9.4M plus ~0.29M per pair)."""
    return 12_000_000 + 500_000 * pairs


def run_prover(code: bytes, data: object, pair_bytes: int, contract: str,
               **execute_options: Any) -> bytes:
    """The output of the prover program ``code`` (:func:`emit_prover`'s) on the pairing
    input ``data`` of ``contract`` (pairs of ``pair_bytes``), on the fast engine unless
    ``engine`` says otherwise: TypeError for data that is not bytes, ValueError where the
    program REVERTs (invalid input)."""
    from ..evm.api import execute
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"pairing input must be bytes, not {type(data).__name__}")
    options: Dict[str, Any] = {"engine": "fast", "gas": prover_gas(len(data) // pair_bytes),
                               **execute_options}
    result = execute(code, bytes(data), **options)
    if not result.success:
        raise ValueError(f"not a valid {contract} input ({result.error})")
    return result.output
