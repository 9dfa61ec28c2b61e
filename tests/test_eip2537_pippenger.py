"""The MSM contracts' bucket mode (Pippenger, :mod:`evm384_native.bls12_381.pippenger`),
used under EVMMAX from a number of pairs: results against blst around the threshold,
edge scalars, repeated and cancelling points, infinity, and crafted inputs that meet an
exceptional addition in the fast loop (its complete fallback must then run)."""
import random

import pytest
from py_ecc.optimized_bls12_381 import curve_order as R_ORDER, neg, normalize

from evm384_native.bls12_381 import msm, pippenger
from evm384_native.bls12_381.eip2537_oracle import blst_msm, blst_point, msm_input
from test_eip2537_ops import API, MSM, SCALARS, check_msm, complete_path_ran, rand_point

TARGET = "evmmax"                       # the bucket mode's target (EVM384 keeps Straus)


def threshold(kind):
    """The least number of pairs the bucket mode takes, and its window width."""
    return msm.BUCKETS[f"g{kind}", TARGET]


def random_pairs(kind, count, rng, scalars=()):
    pairs = [(rand_point(kind, rng), rng.randrange(1 << 256)) for _ in range(count)]
    for i, s in enumerate(scalars):
        pairs[i] = (pairs[i][0], s)
    return pairs


def test_bucket_mode_is_configured_for_g2_under_evmmax_only():
    assert threshold(2)[0] > 2
    assert set(msm.BUCKETS) == {("g2", TARGET)}


def test_the_sums_start_cancels_the_buckets_starts():
    _, width = threshold(2)
    bits = msm.SPLITS["g2"][-1][0].digit_bits
    shift = width * pippenger.windows(bits, width)
    assert (pippenger.alpha(bits, width) * 2 ** shift
            + pippenger.offset_scalar(bits, width)) % R_ORDER == 0


@pytest.mark.parametrize("kind", [2])
def test_bucket_mode_around_its_threshold_with_edge_scalars(kind):
    """One pair below the threshold (Straus) and at it (buckets), every edge scalar
    among random ones; the bucket mode takes the fast path on them."""
    least, _ = threshold(kind)
    rng = random.Random(7000 + kind)
    for count in (least - 1, least):
        pairs = random_pairs(kind, count, rng, SCALARS)
        ran, output = complete_path_ran(kind, msm_input(kind, pairs), TARGET)
        assert output == blst_msm(kind, pairs) and not ran


@pytest.mark.parametrize("kind", [2])
def test_bucket_mode_with_repeated_cancelling_and_infinite_terms(kind):
    """The same point many times with the same scalar (a bucket receives a point equal
    to what it already holds, past the offset), P and -P with one scalar (the buckets'
    sums cancel), infinity and zero scalars, and a sum of zero."""
    least, _ = threshold(kind)
    rng = random.Random(7100 + kind)
    p = rand_point(kind, rng)
    s = rng.randrange(R_ORDER)
    minus_p = normalize(neg((p[0], p[1], type(p[0]).one())))
    cases = [[(p, s)] * least,
             [(p, s), (minus_p, s)] * (least // 2) + [(None, 5), (p, 0)] * (least % 2),
             [(None, s)] * (least - 1) + [(p, R_ORDER)],
             random_pairs(kind, least - 2, rng) + [(p, 1), (minus_p, 1)]]
    for pairs in cases:
        assert len(pairs) >= least
        assert check_msm(kind, pairs, TARGET) == blst_msm(kind, pairs)


@pytest.mark.parametrize("kind", [2])
def test_bucket_mode_fast_loop_and_its_complete_fallback(kind):
    """Inputs crafted against the fast loop's offsets: P = [c] G with c = -(u + 2) / 2
    added twice into bucket u of the lowest window (its start T_u = [u + 2] G: the first
    addition leaves -P there, the second meets it), and a sum S = infinity (the fast
    loop ends there); each must take the complete path and agree with
    blst."""
    least, _ = threshold(kind)
    rng = random.Random(7200 + kind)
    u = 3                                           # bucket 3 of the lowest window
    c = (-(u + 2) * pow(2, -1, R_ORDER)) % R_ORDER
    point = blst_point(kind, c)
    pairs = [(point, u), (point, u)] + random_pairs(kind, least - 2, rng)   # first in
    ran, output = complete_path_ran(kind, msm_input(kind, pairs), TARGET)
    assert ran and output == blst_msm(kind, pairs)
    # S = infinity (the starts cancel: the fast loop's last addition meets -acc)
    total = 0
    scalars = [rng.randrange(1, R_ORDER) for _ in range(least)]
    coefficients = [rng.randrange(1, R_ORDER) for _ in range(least - 1)]
    rest = (total - sum(a * s for a, s in zip(coefficients, scalars))) % R_ORDER
    coefficients.append(rest * pow(scalars[-1], -1, R_ORDER) % R_ORDER)
    pairs = [(blst_point(kind, a), s) for a, s in zip(coefficients, scalars)]
    ran, output = complete_path_ran(kind, msm_input(kind, pairs), TARGET)
    assert ran and output == blst_msm(kind, pairs)


@pytest.mark.parametrize("kind", [2])
def test_bucket_mode_digit_patterns(kind):
    """Digits that fill every bucket of every window (u = 0 .. 2^c - 1 spread over the
    pairs) and the largest digits."""
    least, width = threshold(kind)
    split = msm.SPLITS[f"g{kind}"][-1][0]
    rng = random.Random(7300 + kind)
    scalars = []
    for i in range(least):
        window = i % (1 << width)
        digit = sum(window << (width * w) for w in range(pippenger.windows(
            split.digit_bits, width))) % split.radix
        digits = [digit] * len(split.maps)
        if i % 3 == 0:
            digits = [split.radix - 1] * (len(split.maps) - 1) + [1]
        scalars.append(sum(d * split.radix ** j for j, d in enumerate(digits)) % R_ORDER)
    pairs = [(rand_point(kind, rng), s) for s in scalars]
    check_msm(kind, pairs, TARGET)


@pytest.mark.slow
@pytest.mark.parametrize("kind", [2])
def test_bucket_mode_on_the_python_engine(kind):
    """The python engine agrees (one input at the threshold)."""
    least, _ = threshold(kind)
    rng = random.Random(7400 + kind)
    pairs = random_pairs(kind, least, rng)
    assert API[MSM[kind]](msm_input(kind, pairs), engine="python", target=TARGET) == \
        blst_msm(kind, pairs)


@pytest.mark.slow
@pytest.mark.parametrize("kind", [2])
def test_bucket_mode_at_128_pairs_on_both_targets(kind):
    rng = random.Random(7500 + kind)
    pairs = random_pairs(kind, 128, rng, SCALARS)
    for target in ("evmmax", "evm384"):
        check_msm(kind, pairs, target)
