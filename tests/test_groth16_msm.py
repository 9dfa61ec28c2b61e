"""The Groth16 verifier's fixed-base MSM (evm384_native.groth16.msm) against Python
integers (curves.points' group law, checked against py_ecc in test_bn254_points.py): every
plan, both targets, random scalars and the inputs that take the slow path (an addition
meeting acc = +-T)."""
from __future__ import annotations

import random

import pytest

from evm384_native import execute
from evm384_native.asm import G1, G1Jacobian
from evm384_native.bn254.io import return_words
from evm384_native.bn254.points import G1 as GROUP
from evm384_native.curves.bn254 import BN254
from evm384_native.groth16 import msm
from evm384_native.tower import fp, jacobian
from evm384_native.tower.contract import assemble
from evm384_native.tower.targets import resolve_target

R = BN254.r


def program(offset, points, plan, target):
    tables = msm.fixed_bases(GROUP, offset, points, R, plan)

    def build(e):
        region = e.asm.memory.region("test")
        acc, out = region.alloc(G1Jacobian, "acc"), region.alloc(G1, "out")
        msm.emit_msm(e, acc, tables, [32 * i for i in range(len(points))])
        jacobian.to_affine(e, fp, out, acc)
        return_words(e, out)
    return tables, assemble("msm", BN254, resolve_target(target), build, False).code


def expected(offset, points, scalars):
    total = offset
    for point, s in zip(points, scalars):
        if point is not None:
            total = GROUP.add(total, GROUP.multiply(point, s))
    return total or (0, 0)


def run(code, scalars, target):
    result = execute(code, b"".join(s.to_bytes(32, "big") for s in scalars), opcodes=target,
                     engine="fast", gas=10_000_000)
    assert result.success, result.error
    return tuple(int.from_bytes(result.output[i:i + 32], "big") for i in (0, 32))


@pytest.mark.parametrize("plan", msm.PLANS)
@pytest.mark.parametrize("target", ["evmmax", "evm384"])
def test_random_scalars(plan, target):
    rng = random.Random(str(plan) + target)
    points = [GROUP.generator_multiple(rng.randrange(1, R)) for _ in range(2)]
    offset = GROUP.generator_multiple(rng.randrange(1, R))
    tables, code = program(offset, points, plan, target)
    cases = [[rng.randrange(R) for _ in points] for _ in range(4)]
    cases += [[0, 0], [1, R - 1], [R - 1, R - 1], [1 << 200, 3]]
    for scalars in cases:
        assert run(code, scalars, target) == expected(offset, points, scalars), scalars


@pytest.mark.parametrize("plan", msm.PLANS)
def test_exceptional_inputs_take_the_slow_path(plan):
    """Inputs whose fast path meets acc = +-T or infinity: the sum is still right."""
    rng = random.Random(5)
    base = GROUP.generator_multiple(rng.randrange(1, R))
    offset = base                                   # ic[0] = ic[1]: s = r - 1 gives infinity
    points = [base, GROUP.generator_multiple(rng.randrange(1, R))]
    tables, code = program(offset, points, plan, "evmmax")
    slow = 0
    for scalars in ([R - 1, 0], [R - 2, 0], [0, 0], [1, 0], [R - 1, 5]):
        slow += not msm.fast_path_taken(GROUP, tables, scalars, R)
        assert run(code, scalars, "evmmax") == expected(offset, points, scalars), scalars
    assert slow >= 1


def test_keys_with_points_at_infinity():
    """ic[0] or some ic[i] at infinity (degenerate keys): no fast path, or a base less."""
    rng = random.Random(9)
    point = GROUP.generator_multiple(rng.randrange(1, R))
    for offset, points in ((None, [point, None]), (point, [None, point]), (None, [None])):
        tables, code = program(offset, points, msm.PLANS[0], "evmmax")
        for scalars in ([5, 7], [R - 1, 1])[:1 + (len(points) > 1)]:
            scalars = scalars[:len(points)]
            assert run(code, scalars, "evmmax") == expected(offset, points, scalars)


@pytest.mark.parametrize("plan", [msm.PLANS[0], msm.PLANS[3]])
@pytest.mark.parametrize("target", ["evmmax", "evm384"])
def test_bls12_381(plan, target):
    """The same MSM over BLS12-381's G1 (48-byte values): random scalars, 0 and r - 1."""
    from evm384_native.asm import raw
    from evm384_native.groth16.curves import BLS12_381_GROTH16 as spec
    group, r = spec.g1, spec.curve.r
    rng = random.Random(str(plan) + target)
    points = [group.generator_multiple(rng.randrange(1, r)) for _ in range(2)]
    offset = group.generator_multiple(rng.randrange(1, r))
    tables = msm.fixed_bases(group, offset, points, r, plan)

    def build(e):
        region = e.asm.memory.region("test")
        acc, out = region.alloc(G1Jacobian, "acc"), region.alloc(G1, "out")
        words = region.alloc(raw(128), "words")
        msm.emit_msm(e, acc, tables, [0, 32])
        jacobian.to_affine(e, fp, out, acc)
        e.target.values_out(e, out, words, 64)
        e.asm.push(128)
        e.asm.push(words)
        e.asm.op("RETURN")
    code = assemble("msm", spec.curve, resolve_target(target), build, False).code
    for scalars in ([rng.randrange(r), rng.randrange(r)], [0, 0], [r - 1, 1]):
        result = execute(code, b"".join(s.to_bytes(32, "big") for s in scalars),
                         opcodes=target, engine="fast", gas=10_000_000)
        expected = offset
        for point, s in zip(points, scalars):
            expected = group.add(expected, group.multiply(point, s))
        assert (int.from_bytes(result.output[:64], "big"),
                int.from_bytes(result.output[64:], "big")) == (expected or (0, 0)), scalars
