"""ec/groups.py's groups built from a curve's description: G1's curve check reads the
curve's own a and b (a = 0: BN254, secp256k1; a = -3: P-256), run as EVM code on both
targets against the pure-Python curve (curves/weierstrass.py)."""
import random

import pytest

from evm384_native import execute
from evm384_native.asm import G1
from evm384_native.curves import BN254, weierstrass
from evm384_native.curves.fields import sqrt
from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.ec.groups import g1_group
from evm384_native.tower.contract import assemble
from evm384_native.tower.targets import resolve_target

CURVES = (BN254, SECP256K1, P256)
TARGETS = ("evm384", "evmmax")
WORD = 32


def on_curve_code(curve, target):
    """Calldata x, y (32-byte words): STOP if (x, y) is on G1's curve, else REVERT."""
    group = g1_group(curve)

    def build(e):
        asm = e.asm
        point = asm.memory.region("point").alloc(G1, "point")
        staged = e.target.staging(e, point)
        for i in range(2):
            asm.push(WORD * i)
            asm.op("CALLDATALOAD")
            asm.push(lambda i=i: int(staged) + e.target.value_bytes(e) * i)
            e.target.store_word(e)
        e.target.from_staging(e, point, staged, little_endian=False)
        fail = asm.new_label("off_curve")
        group.require_on_curve(e, point, fail)
        asm.op("STOP")
        asm.place(fail)
        asm.push(0)
        asm.push(0)
        asm.op("REVERT")
    return assemble("on_curve", curve, resolve_target(target), build, False).code


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("curve", CURVES, ids=lambda curve: curve.name)
def test_the_curve_check_reads_the_curves_a_and_b(curve, target):
    reference = weierstrass.Curve(curve.p, curve.a, curve.b, curve.r, curve.g1)
    code = on_curve_code(curve, target)
    rng = random.Random(5)
    points = [weierstrass.multiply(reference, curve.g1, rng.randrange(1, curve.r))
              for _ in range(3)]
    x, y = points[0]
    others = [(x, y + 1), (x + 1, y), (0, 0)]           # off the curve (b != 0)
    if curve.a:                                         # on y^2 = x^3 + b, the a = 0 curve
        x0 = next(x0 for x0 in range(1, 100) if sqrt(x0**3 + curve.b, curve.p) is not None)
        others.append((x0, sqrt(x0**3 + curve.b, curve.p)))
    for point in points + others:
        expected = weierstrass.on_curve(reference, *point)
        data = b"".join(v.to_bytes(WORD, "big") for v in point)
        assert execute(code, data, opcodes=target).success == expected, point
    assert len({weierstrass.on_curve(reference, *point) for point in points + others}) == 2
