"""modn.inverse_products on the targets that build it (plain EVM, EVMMAX): f_i x^-1 mod n
for the group orders the ECDSA contracts invert in, against Python's pow, with 1 and 2
factors (the plain-EVM target's products after one :mod:`~evm384_native.tower.word_power`
chain)."""
from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.asm import Assembler, raw
from evm384_native.asm.layout import WORD
from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.tower import modn
from evm384_native.tower.fp import Emitter
from evm384_native.tower.targets import resolve_target

CURVES = {"P-256": P256, "secp256k1": SECP256K1}


@lru_cache(maxsize=None)
def _program(curve_name: str, target: str, k: int) -> bytes:
    """Calldata x, f_1 .. f_k (words) -> the words f_i x^-1 mod n."""
    curve = CURVES[curve_name]
    isa = resolve_target(target).for_field(curve)
    asm = Assembler("inverse_products", memory=isa.new_memory(), opcodes=isa.opcodes)
    e = Emitter(asm, curve, target=isa)
    words = asm.memory.region("words").alloc(raw((2 * k + 2) * WORD), "words")
    out = asm.memory.region("out").alloc(raw(max(k, 1) * WORD), "out")

    def word(i: int):
        return lambda: (asm.push(WORD * i), asm.op("CALLDATALOAD"))
    modn.inverse_products(e, curve.r, words, word(0), [word(1 + i) for i in range(k)])
    for i in reversed(range(k)):                    # the last product is on top
        asm.push(lambda i=i: int(out) + WORD * i)
        asm.op("MSTORE")
    asm.push(k * WORD)
    asm.push(out)
    asm.op("RETURN")
    e.finish()
    return asm.assemble().code


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(CURVES)), st.sampled_from(("evm", "evmmax")),
       st.integers(1, 2), st.data())
def test_products_of_the_inverse(curve_name, target, k, data):
    n = CURVES[curve_name].r
    x = data.draw(st.integers(1, n - 1))
    factors = [data.draw(st.integers(0, n - 1)) for _ in range(k)]
    calldata = b"".join(v.to_bytes(32, "big") for v in [x, *factors])
    result = execute(_program(curve_name, target, k), calldata, opcodes=target)
    assert result.success, result.error
    inverse = pow(x, -1, n)
    assert [int.from_bytes(result.output[i:i + 32], "big")
            for i in range(0, len(result.output), 32)] == [f * inverse % n for f in factors]
