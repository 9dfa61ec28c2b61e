"""One two-pairing check (k = 2) run N extra times, for callgrind's instruction counts:

    valgrind --tool=callgrind python bench/callgrind_pairing.py fast N
    valgrind --tool=callgrind python bench/callgrind_pairing.py pyblst N

A check's count is (count at N = 10 - count at N = 0) / 10. The first call runs before the
loop so that building the contract and the first-call setup cancel in the difference.
"""
import random
import sys

from evm384_native import execute
from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.oracle import encode_pairs, random_product_case
from peers import blst_check  # bench/peers.py

CHECK = "pairing_product_is_one"


def fast_check(pairs):
    code = build_contract(CHECK)
    calldata = encode_calldata(CHECK, encode_pairs(pairs))
    return lambda: execute(code, calldata, engine="fast", schedule="update5-A").output


def main(which: str, extra: int) -> None:
    pairs = tuple(random_product_case(random.Random(2), 2, True))
    check = fast_check(pairs) if which == "fast" else blst_check(pairs)
    first = check()
    for _ in range(extra):
        assert check() == first


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
