"""The EIP-2537 pairing-check contract against py-evm's own pairing-check precompile
(Prague, address 0x0f) on mutated inputs: the contract must return the precompile's word
where the precompile succeeds, and fail as it does (INVALID, all gas consumed) where it fails.

Needs the test extras (py-evm, py_ecc, pyblst, chia_rs).
"""
from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Callable, Dict, List, Optional, TextIO, Tuple

from evm384_native import execute
from evm384_native.asm.failure import HALT
from evm384_native.bls12_381 import build_contract
from evm384_native.curves import BLS12_381
from evm384_native.bls12_381.oracle import (eip2537_input, g1_off_subgroup, g2_off_subgroup,
                                            random_product_case)

P = BLS12_381.p

CONTRACT = "eip2537_pairing_check"
PRECOMPILE = (0x0F).to_bytes(20, "big")
FIELD, PAIR = 64, 384
PADDING = 16                      # zero bytes before each 48-byte big-endian coordinate
G1_FIELDS, PAIR_FIELDS = 2, 6


def precompile(data: bytes) -> Optional[bytes]:
    """py-evm's answer: the output word, or None where the precompile fails."""
    from eth.vm.forks import PragueVM
    from evm384_native.integrations.pyevm import execute_in_pyevm
    result = execute_in_pyevm(b"", data, gas=30_000_000, vm_class=PragueVM, to=PRECOMPILE)
    return result.output if result.success else None


def contract(data: bytes, engine: str = "fast") -> Optional[bytes]:
    """The contract's answer: the output word, or None where it fails as the precompile
    does (INVALID, all gas consumed, no output)."""
    result = execute(build_contract(CONTRACT), data, gas=30_000_000, engine=engine,
                     schedule="update5-A")
    if result.success:
        return result.output
    if not HALT.ended(result):
        raise AssertionError(f"the contract halted with {result.error!r} "
                             f"(output {result.output.hex()}) instead of failing as the "
                             f"precompile does")
    return None


# --- mutations ----------------------------------------------------------------------------

def _field(data: bytes, index: int) -> int:
    return int.from_bytes(data[FIELD * index:FIELD * (index + 1)], "big")


def _with_field(data: bytes, index: int, raw: bytes) -> bytes:
    return data[:FIELD * index] + raw + data[FIELD * (index + 1):]


def _set_value(data: bytes, index: int, value: int) -> bytes:
    return _with_field(data, index, value.to_bytes(FIELD, "big"))


def _any_field(rng: random.Random, data: bytes) -> int:
    return rng.randrange(len(data) // FIELD)


def _bit_flip(rng, data):
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]


def _value_bit_flip(rng, data):
    index = _any_field(rng, data)
    return _set_value(data, index, _field(data, index) ^ (1 << rng.randrange(381)))


def _padding(rng, data):
    index, byte = _any_field(rng, data), rng.randrange(PADDING)
    at = FIELD * index + byte
    return data[:at] + bytes([rng.randrange(1, 256)]) + data[at + 1:]


def _edge_value(rng, data):
    index = _any_field(rng, data)
    value = _field(data, index)
    return _set_value(data, index, rng.choice([value + P, P, P - 1, 0, 1, 2**381 - 1]))


def _length(rng, data):
    delta = rng.choice([-PAIR, -1, 1, 31, 32, 64, PAIR - 1])
    return data[:len(data) + delta] if delta < 0 else data + bytes(rng.randrange(256) for _ in range(delta))


def _infinity(rng, data):
    """One point (G1 or G2 of some pair) all zero: the point at infinity."""
    pair, g2 = rng.randrange(len(data) // PAIR), rng.random() < 0.5
    start = PAIR * pair + (G1_FIELDS * FIELD if g2 else 0)
    size = (PAIR_FIELDS - G1_FIELDS if g2 else G1_FIELDS) * FIELD
    zeros = bytearray(size)
    if rng.random() < 0.3:      # ... or almost: one padding or value byte set
        zeros[rng.randrange(size)] = 1
    return data[:start] + bytes(zeros) + data[start + size:]


def _infinity_pair(rng, data):
    at = PAIR * rng.randrange(len(data) // PAIR + 1)
    return data[:at] + bytes(PAIR) + data[at:]


def _negate(rng, data):
    """-P for a G1 point or -Q for a G2 point (valid; changes the answer)."""
    pair = rng.randrange(len(data) // PAIR)
    indices = [1] if rng.random() < 0.5 else [4, 5]
    for index in indices:
        value = _field(data, PAIR_FIELDS * pair + index)
        data = _set_value(data, PAIR_FIELDS * pair + index, (P - value) % P)
    return data


def _off_curve(rng, data):
    index = PAIR_FIELDS * rng.randrange(len(data) // PAIR) + rng.choice([0, 1, 2, 3, 4, 5])
    return _set_value(data, index, (_field(data, index) + rng.randint(1, 3)) % P)


def _off_subgroup(rng, data):
    """A point on its curve (or twist) but not in the r-order subgroup."""
    from py_ecc.optimized_bls12_381 import normalize
    pair = rng.randrange(len(data) // PAIR)
    if rng.random() < 0.5:
        point = eip2537_input([(normalize(g1_off_subgroup(rng)), None)])[:G1_FIELDS * FIELD]
        start = PAIR * pair
    else:
        point = eip2537_input([(None, normalize(g2_off_subgroup(rng)))])[G1_FIELDS * FIELD:]
        start = PAIR * pair + G1_FIELDS * FIELD
    return data[:start] + point + data[start + len(point):]


def _reorder(rng, data):
    pairs = [data[i:i + PAIR] for i in range(0, len(data), PAIR)]
    rng.shuffle(pairs)
    if rng.random() < 0.5:
        pairs.append(rng.choice(pairs))
    return b"".join(pairs)


MUTATIONS: Dict[str, Callable[[random.Random, bytes], bytes]] = {
    "bit flip": _bit_flip, "value bit flip": _value_bit_flip, "padding byte": _padding,
    "edge value": _edge_value, "length": _length, "infinity point": _infinity,
    "infinity pair": _infinity_pair, "negated point": _negate, "off curve": _off_curve,
    "off subgroup": _off_subgroup, "reordered pairs": _reorder,
}


@lru_cache(maxsize=None)
def valid_input(seed: int) -> bytes:
    """Random pairs: one (seed % 3 == 0), or two whose product is one (seed % 3 == 1) or
    not (seed % 3 == 2)."""
    k = 1 if seed % 3 == 0 else 2
    return eip2537_input(random_product_case(random.Random(seed), k, seed % 3 == 1))


def mutated_input(seed: int, names: Optional[List[str]] = None) -> Tuple[List[str], bytes]:
    """A valid input with one to three mutations (chosen from ``names``) applied."""
    rng = random.Random(f"eip2537:{seed}")
    data = valid_input(seed % 9)
    applied = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if len(data) < PAIR:   # a cut input is mutated no further
            break
        name = rng.choice(names or sorted(MUTATIONS))
        data = MUTATIONS[name](rng, data)
        applied.append(name)
    return applied, data


def fuzz(seconds: float, seed: int, log: TextIO) -> int:
    """Mutated inputs until time runs out: 0 when all agreed, else 1."""
    deadline, answered, rejected = time.monotonic() + seconds, 0, 0
    index = seed * 1_000_000
    while time.monotonic() < deadline:
        applied, data = mutated_input(index)
        expected, ours = precompile(data), contract(data)
        if ours != expected:
            print(f"eip2537: case {index} ({', '.join(applied)}) FAILED: contract "
                  f"{ours and ours.hex()} but the precompile {expected and expected.hex()}\n"
                  f"  input {data.hex()}", file=log)
            return 1
        answered, rejected = answered + (expected is not None), rejected + (expected is None)
        index += 1
    print(f"eip2537: {answered + rejected} mutated inputs agree with py-evm's precompile "
          f"({answered} answered, {rejected} rejected)", file=log)
    return 0
