"""Other BLS12-381 libraries, set up for timing the pairing alone.

Each ``*_check(pairs)`` decodes the affine pairs (Python integers, as made by
``oracle.random_product_case``) into the library's own points beforehand and returns a
zero-argument callable that runs only the pairing product check and returns its answer,
so decoding and subgroup checks stay out of the timings (the EVM384 contract validates
nothing either). Every check has one Miller loop per pair and one final exponentiation,
except chia_rs (see :func:`chia_check`).
"""
from __future__ import annotations

from functools import reduce
from operator import mul
from typing import Callable, Dict, Sequence, Tuple

from ..bls12_381.oracle import be_g1, be_g2, blst_points_of, compressed_g1, compressed_g2
from ..curves import BLS12_381
from ..evm.kernels.montgomery import to_montgomery

P = BLS12_381.p

AffinePairs = Sequence[Tuple[tuple, tuple]]
Check = Callable[[], bool]
PY_ECC = "py_ecc (pure Python)"

# One in GT as blst lays out an Fp12 (Montgomery form, little-endian): what the EVM384
# contracts return for one and what chia_rs's GTElement holds.
GT_ONE = to_montgomery(1, P).to_bytes(48, "little") + bytes(11 * 48)


def blst_miller_loops(blst_points) -> object:
    """pyblst: the product of the pairs' Miller loops (a BlstFP12Element)."""
    import pyblst
    return reduce(mul, (pyblst.miller_loop(p, q) for p, q in blst_points),
                  pyblst.BlstFP12Element())


def blst_is_one_after_final_exponentiation(f) -> bool:
    """pyblst.final_verify(f, one): blst_fp12_finalverify multiplies f by the conjugate of
    one (one Fp12 multiplication), runs the final exponentiation and compares with one."""
    import pyblst
    return pyblst.final_verify(f, pyblst.BlstFP12Element())


def blst_check(pairs: AffinePairs) -> Check:
    """pyblst: Miller loops, their product, final_verify (the baseline)."""
    points = blst_points_of(pairs)
    return lambda: blst_is_one_after_final_exponentiation(blst_miller_loops(points))


def chia_check(pairs: AffinePairs) -> Check:
    """chia_rs (blst inside) has no Miller-loop API: each ``G1Element.pair(G2Element)`` is a
    full pairing, so a k-pair check runs k final exponentiations instead of one."""
    import chia_rs
    points = [(chia_rs.G1Element.from_bytes(compressed_g1(p)),
               chia_rs.G2Element.from_bytes(compressed_g2(q))) for p, q in pairs]
    one = chia_rs.GTElement.from_bytes(GT_ONE)
    return lambda: reduce(mul, (p.pair(q) for p, q in points)) == one


def arkworks_check(pairs: AffinePairs) -> Check:
    """py_arkworks_bls12381: ``GT.pairing_check`` (multi Miller loop, one final
    exponentiation)."""
    from py_arkworks_bls12381 import GT, G1Point, G2Point
    g1s = [G1Point.from_xy_bytes_be(be_g1(p)) for p, _ in pairs]
    g2s = [G2Point.from_xy_bytes_be(be_g2(q)) for _, q in pairs]
    return lambda: GT.pairing_check(g1s, g2s)


def _py_ecc_points(p, q) -> tuple:
    """An affine pair of ints as py_ecc's projective G2 and G1 points."""
    from py_ecc.optimized_bls12_381 import FQ, FQ2
    return ((FQ2(q[0]), FQ2(q[1]), FQ2.one()), (FQ(p[0]), FQ(p[1]), FQ.one()))


def py_ecc_miller_loops(pairs: AffinePairs) -> Callable[[], object]:
    """py_ecc (optimized_bls12_381, pure Python): the product of the Miller loops."""
    from py_ecc.optimized_bls12_381 import FQ12
    from py_ecc.optimized_bls12_381.optimized_pairing import miller_loop
    points = [_py_ecc_points(p, q) for p, q in pairs]
    return lambda: reduce(mul, (miller_loop(q, p, final_exponentiate=False)
                                for q, p in points), FQ12.one())


def py_ecc_is_one_after_final_exponentiation(f) -> bool:
    from py_ecc.optimized_bls12_381 import FQ12, final_exponentiate
    return final_exponentiate(f) == FQ12.one()


def py_ecc_check(pairs: AffinePairs) -> Check:
    """py_ecc: Miller loops, their product, final_exponentiate, compare with one."""
    miller_loops = py_ecc_miller_loops(pairs)
    return lambda: py_ecc_is_one_after_final_exponentiation(miller_loops())


PEER_CHECKS: Dict[str, Callable[[AffinePairs], Check]] = {
    "pyblst": blst_check,
    "chia_rs (2 full pairings)": chia_check,
    "py_arkworks_bls12381": arkworks_check,
    PY_ECC: py_ecc_check,
}
