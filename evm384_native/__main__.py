"""``python -m evm384_native``: a short demonstration of the EVM384 kernels."""
from __future__ import annotations

import random
import time

from . import kernel, reference
from .limbs import array_to_ints, ints_to_array
from .montgomery import from_montgomery, montgomery_inv, to_montgomery

BLS12_381_P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
BATCH = 100_000


def _ns_per_op(run, rounds: int = 10) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / BATCH * 1e9


def main() -> None:
    p, inv = BLS12_381_P, montgomery_inv(BLS12_381_P)
    print(f"evm384_native: Montgomery multiplication implementation = {kernel.current_implementation()}")

    a, b = 2**255 + 12345, 3**200
    mem = bytearray(to_montgomery(a, p).to_bytes(48, "little") + to_montgomery(b, p).to_bytes(48, "little")
                    + p.to_bytes(48, "little") + inv.to_bytes(8, "little"))
    kernel.mulmodmont384(mem, 0, 0, 48, 96)  # out=0, x=0, y=48, mod=96
    product = from_montgomery(int.from_bytes(mem[:48], "little"), p)
    print(f"MULMODMONT384 on EVM memory: a*b mod p correct: {product == a * b % p}")

    rng = random.Random(1)
    xs = [rng.randrange(p) for _ in range(BATCH)]
    ys = [rng.randrange(p) for _ in range(BATCH)]
    x, y = ints_to_array(xs), ints_to_array(ys)
    sample = array_to_ints(kernel.mulmont384_batch(x[:100], y[:100], p, inv))
    agree = sample == [reference.mulmont384_int(u, v, p, inv) for u, v in zip(xs[:100], ys[:100])]
    print(f"native batch agrees with the pure-Python reference: {agree}")
    for name, run in (("ADDMOD384", lambda: kernel.addmod384_batch(x, y, p)),
                      ("SUBMOD384", lambda: kernel.submod384_batch(x, y, p)),
                      ("MULMODMONT384", lambda: kernel.mulmont384_batch(x, y, p, inv))):
        print(f"{name:>14}: {_ns_per_op(run):6.1f} ns/op inside one batch of {BATCH:,}")


if __name__ == "__main__":
    main()
