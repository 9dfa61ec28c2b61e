"""What the pairing does differently in each family of curves, written once per family
over a curve description (arkworks' ``Bls12Config`` / ``BnConfig`` play this part):

- the digits of the Miller loop's parameter (BLS12: |x| in binary, x < 0 conjugates the
  result; BN: 6x + 2 in non-adjacent form, digits -1 subtract Q);
- the lines after the digits (BN: through pi(Q) and -pi^2(Q));
- the hard part of the final exponentiation, (p^4 - p^2 + 1) / r, as a chain of powers by x,
  cyclotomic squarings, products and Frobenius maps.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Protocol, Sequence, Tuple

from ..asm import Fp12, G2
from ..curves.model import PairingCurve
from . import fp2, fp12
from .fp import Emitter

ClosingLine = Callable[[Emitter, G2, G2], None]     # (e, out, the point added last)


class FinalExponentiation(Protocol):
    """What a family's hard part uses of the final exponentiation
    (:class:`.pairing.FinalExponentiation`): its emitter, and its products, cyclotomic
    squarings and powers by x (subroutines sharing its accumulator)."""
    e: Emitter

    def mul(self, out: Fp12, a: Fp12, b: Fp12) -> None: ...

    def cyclotomic_sqr(self, out: Fp12, a: Fp12) -> None: ...

    def pow_x(self, out: Fp12, a: Fp12, half: bool = False) -> None: ...


def non_adjacent_form(n: int, width: int = 2) -> List[int]:
    """The width-w NAF of n > 0, most significant digit first: odd digits of magnitude
    below 2^(w - 1) or 0, any w consecutive digits holding at most one non-zero (the
    fewest non-zero digits of any signed form with those digits). Width 2 is the NAF:
    digits -1, 0, 1, no two adjacent non-zero."""
    digits = []
    window, half = 1 << width, 1 << (width - 1)
    while n:
        digit = (n % window if n % window < half else n % window - window) if n % 2 else 0
        digits.append(digit)
        n = (n - digit) // 2
    return digits[::-1]


def quotient_exponent(curve: PairingCurve, lam: int, odd: bool = False) -> Tuple[int, int]:
    """(E, base-p digits of E) with c^-1 = f^E: in Fp12*/Fp6* (cyclic, order p^6 + 1) f's
    image has order dividing N = (p^6 + 1) / r, so E = -(lambda^-1 mod N) makes
    f c^-lambda = f^(1 + E lambda) = 1 there, i.e. f cinv^lambda in Fp6*, where lambda is
    coprime to N. ``odd``: lambda and N share the factor 2 (N = 2 mod 4 for p odd), so
    only N's odd part N / 2 is cleared, and f cinv^lambda lies in Fp6* or in w Fp6* (the
    image of order 2: w^2 = v), which the check accepts (:func:`.residue.push_accepted`)."""
    order = (curve.p ** 6 + 1) // curve.r // (2 if odd else 1)
    exponent = -pow(lam, -1, order) % order
    digits = 1
    while curve.p ** digits <= exponent:
        digits += 1
    return exponent, digits


class Bls12:
    """BLS12 curves (x < 0 for BLS12-381, x > 0 for BLS12-377): the loop over |x|, blst's
    hard part."""
    closing_lines: Tuple[ClosingLine, ...] = ()

    def residue_lambda(self, curve: PairingCurve) -> int:
        """The residue-witness check's lambda, |x| -+ p (a multiple of r: p = x mod r):
        p - x = p + |x| for x < 0, x - p for x > 0. The loop folds cinv^|x| in, then the
        Frobenius image (:meth:`hint_frobenius`)."""
        return abs(curve.x) + (curve.p if curve.x < 0 else -curve.p)

    def hint_frobenius(self, curve: PairingCurve) -> Tuple[Tuple[int, int], ...]:
        """cinv^p for x < 0; for x > 0 c'^p (c' = 1 - t w: cinv^-1 times an Fp6 value)."""
        return ((1 if curve.x < 0 else -1, 1),)

    def residue_w_class(self, curve: PairingCurve) -> bool:
        """Whether the check also accepts f cinv^lambda in w Fp6* (:func:`quotient_exponent`'s
        ``odd``): for x > 0 (BLS12-377), whose lambda = x - p is even, as N is."""
        return curve.x > 0

    def hint_exponent(self, curve: PairingCurve) -> Tuple[int, int]:
        """(E, base-p digits of E) with c^-1 = f^E. For x < 0 (``hinted-pairing.md`` §2):
        with h = (p^12 - 1) / r = 27 PF h3, PF = (1 - x) / 3, w = f^(h3 s) (s = -h3^-1
        mod 27 PF) clears f's 27 PF-part and c = (f w)^(lambda^-1 mod h3); E mod h. For
        x > 0: :func:`quotient_exponent` over N's odd part."""
        if curve.x > 0:
            return quotient_exponent(curve, self.residue_lambda(curve), odd=True)
        p, r = curve.p, curve.r
        h = (p ** 12 - 1) // r
        pf = (1 - curve.x) // 3
        h3 = h // (27 * pf)
        s = -pow(h3, -1, 27 * pf) % (27 * pf)
        lam = self.residue_lambda(curve)
        return -(1 + h3 * s) * pow(lam, -1, h3) % h, 12

    def loop_digits(self, curve: PairingCurve) -> List[int]:
        """The bits of |x| after the leading one."""
        return [int(bit) for bit in bin(abs(curve.x))[3:]]

    def hard_part(self, fe: FinalExponentiation, f: Fp12, y: Sequence[Fp12]) -> None:
        """f^(3 (p^4 - p^2 + 1) / r) as blst computes it (Hayashida-Hayasaka-Teruya's
        chain, 3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3 for any x:
        four powers by x and one by x/2). An odd x (BLS12-377's) has no x/2: f^(x^2) is
        then (f^x)^x, and f^(2x) the square of f^x."""
        e = fe.e
        conj, frob = fp12.conj, fp12.frobenius
        y0, y1, y2, y3 = y
        fe.cyclotomic_sqr(y0, f)                  # f^2
        if e.curve.x % 2 == 0:
            fe.pow_x(y1, y0)                      # f^(2x)
            fe.pow_x(y2, y1, half=True)           # f^(x^2)
        else:
            fe.pow_x(y1, f)                       # f^x
            fe.pow_x(y2, y1)                      # f^(x^2)
            fe.cyclotomic_sqr(y1, y1)             # f^(2x)
        conj(e, y3, f)
        fe.mul(y1, y1, y3)
        conj(e, y1, y1)
        fe.mul(y1, y1, y2)
        fe.pow_x(y2, y1)
        fe.pow_x(y3, y2)
        conj(e, y1, y1)
        fe.mul(y3, y3, y1)
        conj(e, y1, y1)
        frob(e, y1, y1, 3)
        frob(e, y2, y2, 2)
        fe.mul(y1, y1, y2)
        fe.pow_x(y2, y3)
        fe.mul(y2, y2, y0)
        fe.mul(y2, y2, f)
        fe.mul(y1, y1, y2)
        frob(e, y2, y3, 1)
        fe.mul(f, y1, y2)


def twist_frobenius(e: Emitter, out: G2, q: G2, n: int, negate: bool = False) -> None:
    """out = pi^n(Q) (or -pi^n(Q)) for Q on a D-type twist: the p^n-power Frobenius moved
    to the twist, (x^(p^n) xi^((p^n - 1)/3), y^(p^n) xi^((p^n - 1)/2)); x^(p^n) is the
    conjugate for odd n. ``out`` must not overlap ``q``."""
    p, xi, fp2_ints = e.curve.p, e.curve.xi, e.curve.fp2
    gamma_x = fp2_ints.pow(xi, (p ** n - 1) // 3)
    gamma_y = fp2_ints.pow(xi, (p ** n - 1) // 2)
    if negate:
        gamma_y = (-gamma_y[0] % p, -gamma_y[1] % p)
    odd = n % 2 == 1
    fp2.mul_const(e, out.x, q.x, gamma_x, f"twist_frob{n}.x", conjugate=odd)
    fp2.mul_const(e, out.y, q.y, gamma_y, f"twist_frob{n}.y", conjugate=odd)


def _frobenius_image(e: Emitter, out: G2, q: G2) -> None:
    twist_frobenius(e, out, q, 1)


def _negated_frobenius_image(e: Emitter, out: G2, q: G2) -> None:
    twist_frobenius(e, out, q, 1, negate=True)


class Bn:
    """BN curves (x > 0 for BN254): the loop over 6x + 2 in NAF, two closing lines, and
    Fuentes-Castaneda, Knapp and Rodriguez-Henriquez's hard part ("Faster hashing to
    G2", SAC 2011, §6: three powers by x)."""
    # the points the closing lines add, each from the last: Q1 = pi(Q), Q2 = -pi(Q1)
    closing_lines: Tuple[ClosingLine, ...] = (_frobenius_image, _negated_frobenius_image)

    def residue_lambda(self, curve: PairingCurve) -> int:
        p = curve.p
        return 6 * curve.x + 2 + p - p ** 2 + p ** 3

    def hint_frobenius(self, curve: PairingCurve) -> Tuple[Tuple[int, int], ...]:
        """lambda = 6x + 2 + p - p^2 + p^3: the loop folds cinv^(6x + 2) in, then cinv^p,
        c'^(p^2) (c' = 1 - t w) and cinv^(p^3)."""
        return ((1, 1), (-1, 2), (1, 3))

    def residue_w_class(self, curve: PairingCurve) -> bool:
        return False

    def hint_exponent(self, curve: PairingCurve) -> Tuple[int, int]:
        """(E, base-p digits of E) with c^-1 = f^E: :func:`quotient_exponent` (lambda is
        coprime to (p^6 + 1) / r for BN254)."""
        return quotient_exponent(curve, self.residue_lambda(curve))

    def loop_digits(self, curve: PairingCurve) -> List[int]:
        """The NAF digits of 6x + 2 after the leading one."""
        return non_adjacent_form(6 * curve.x + 2)[1:]

    def hard_part(self, fe: FinalExponentiation, f: Fp12, y: Sequence[Fp12]) -> None:
        """f^(k (p^4 - p^2 + 1) / r) with k = 2x (6x^2 + 3x + 1), coprime to r (the
        multiple Fuentes-Castaneda et al. use), as f^(2x z + 1 - p^3) with
        s = 1 + p + p^2 + p^3, v = (2x + 1) s + 1 and z = 3x v + 2 s + 1 + p^2 (equal to
        it modulo the cyclotomic subgroup's order p^4 - p^2 + 1; tests/test_bn254_tower.py
        checks it): three powers by x, three cyclotomic squarings, nine products and the
        Frobenius maps p^2, p, and p^3 as p^2 then p (fewer constants)."""
        e = fe.e
        conj, frob = fp12.conj, fp12.frobenius
        a, s, s2, v = y                           # exponents of f in the comments
        frob(e, a, f, 2)
        fe.mul(a, f, a)                           # a = 1 + p^2
        frob(e, s, a, 1)
        fe.mul(s, a, s)                           # s = 1 + p + p^2 + p^3
        fe.cyclotomic_sqr(s2, s)                  # s2 = 2 s
        fe.pow_x(v, s2)                           # v = 2x s
        fe.mul(v, v, s)
        fe.mul(v, v, f)                           # v = (2x + 1) s + 1
        fe.cyclotomic_sqr(s, v)
        fe.mul(s, s, v)                           # s = 3 v
        fe.pow_x(s, s)                            # s = 3x v
        fe.mul(s, s, s2)
        fe.mul(s, s, a)                           # s = 3x v + 2 s + 1 + p^2 = z
        fe.cyclotomic_sqr(s, s)
        fe.pow_x(s, s)                            # s = 2x z
        fe.mul(s, s, f)                           # s = 2x z + 1
        frob(e, a, f, 2)
        frob(e, a, a, 1)
        conj(e, a, a)                             # a = -p^3
        fe.mul(f, s, a)


FAMILIES: Dict[str, object] = {"bls12": Bls12(), "bn": Bn()}


def family_of(curve: PairingCurve):
    """The algorithms of ``curve``'s family."""
    return FAMILIES[curve.family]
