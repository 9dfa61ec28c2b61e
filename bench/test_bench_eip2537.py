"""EIP-2537's point precompiles as EVM384 contracts beside blst and arkworks, in ONE
pytest-benchmark run on the same random instances, each benchmark checking its answer.

    bench/eip2537.sh      # this run, then the table (eip2537_table.py)
    python -m pytest bench/test_bench_eip2537.py --benchmark-json=bench/results/eip2537.json

One group per operation and k ("G1 MSM, k = 8"): the contract on the fast engine
(``execute(build_contract(name), input, engine="fast", schedule="update5-A")``, full
validation included), and the same operation by

* blst: pyblst where it has the operation, else chia_rs (blst inside) -- addition:
  chia_rs ``G1Element + G1Element``; MSM: pyblst ``scalar_mul`` of each point (pyblst has
  no point addition and no MSM; the k - 1 additions, ~1 µs each in blst, are left out);
  map: pyblst ``hash_to_group`` (no bare map in pyblst: it is RFC 9380's hash_to_curve,
  i.e. expand_message_xmd, TWO maps, one addition and one cofactor clearing, so an upper
  bound for one map);
* arkworks (py_arkworks_bls12381): ``+``, ``multiexp_unchecked`` (Pippenger),
  ``map_from_fp_be`` / ``map_from_fp2_be`` -- the same operations exactly.

Points and elements are decoded beforehand for the libraries; the contract decodes and
validates its input itself (as the precompile must). extra_info carries the contract's
bytecode size, instructions, EVM384 ops and gas under the three schedules, and the
precompile's gas price.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Callable, Dict

import pytest

from evm384_native import execute
from evm384_native.bls12_381 import build_contract
from evm384_native.bls12_381.eip2537_oracle import (arkworks_encode, blst_msm, blst_point,
                                                    compressed_g1, compressed_g2, encode_point,
                                                    msm_input, py_ecc_map)
from evm384_native.bls12_381.usage import USAGE
from test_bench_pairing import BLST, FAST, _bench, _facts   # bench/test_bench_pairing.py

R_ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
ARKWORKS = "py_arkworks_bls12381"
MSM_KS = (1, 2, 8, 32, 128)
HASH_DST = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_"
# enough for the largest case under the dearest schedule (G2 MSM, k = 128, evmone-v7 gas
# is above a 30M block)
FACTS_GAS = 100_000_000
# rounds per contract run time: ~0.1-1 ms, ~1-20 ms, more
ROUNDS = {"short": 200, "medium": 20, "long": 5}


def precompile_gas(name: str, calldata: bytes) -> int:
    """What EIP-2537's precompile charges for the same input (the contracts' usage registry)."""
    return USAGE[name].precompile_gas(calldata)


@lru_cache(maxsize=None)
def _msm_pairs(kind: int, k: int) -> tuple:
    rng = random.Random(100 * kind + k)
    return tuple((blst_point(kind, rng.randrange(1, R_ORDER)), rng.randrange(R_ORDER))
                 for _ in range(k))


def _ark(kind: int):
    import py_arkworks_bls12381 as ark
    return ark.G1Point if kind == 1 else ark.G2Point


def _ark_point(kind: int, point):
    return _ark(kind).from_compressed_bytes((compressed_g1 if kind == 1 else compressed_g2)(point))


def _ark_scalar(s: int):
    import py_arkworks_bls12381 as ark
    return ark.Scalar.from_be_bytes_mod_order(s.to_bytes(32, "big"))


class Case:
    """One operation instance: the contract's input and answer, and the libraries' runs."""

    def __init__(self, group: str, contract: str, calldata: bytes, expected: bytes,
                 precompile_gas: int, blst: Callable[[], Callable[[], object]],
                 arkworks: Callable[[], Callable[[], bytes]], rounds: str) -> None:
        self.group, self.contract, self.calldata = group, contract, calldata
        self.expected, self.precompile_gas = expected, precompile_gas
        self.blst, self.arkworks, self.rounds = blst, arkworks, ROUNDS[rounds]


def _add_case(kind: int) -> Case:
    import chia_rs
    rng = random.Random(kind)
    p, q = (blst_point(kind, rng.randrange(1, R_ORDER)) for _ in range(2))
    chia = chia_rs.G1Element if kind == 1 else chia_rs.G2Element
    compress = compressed_g1 if kind == 1 else compressed_g2

    def blst():
        a, b = chia.from_bytes(compress(p)), chia.from_bytes(compress(q))
        return lambda: a + b

    def arkworks():
        a, b = _ark_point(kind, p), _ark_point(kind, q)
        return lambda: arkworks_encode(a + b)
    name, calldata = f"eip2537_g{kind}add", encode_point(kind, p) + encode_point(kind, q)
    return Case(f"G{kind} addition", name, calldata, blst_msm(kind, [(p, 1), (q, 1)]),
                precompile_gas(name, calldata), blst, arkworks, "short")


def _msm_case(kind: int, k: int) -> Case:
    import pyblst
    pairs = _msm_pairs(kind, k)

    def blst():
        element = pyblst.BlstP1Element if kind == 1 else pyblst.BlstP2Element
        compress = compressed_g1 if kind == 1 else compressed_g2
        points = [(element.uncompress(compress(p)), s) for p, s in pairs]
        return lambda: [p.scalar_mul(s) for p, s in points]

    def arkworks():
        points = [_ark_point(kind, p) for p, _ in pairs]
        scalars = [_ark_scalar(s) for _, s in pairs]
        return lambda: arkworks_encode(_ark(kind).multiexp_unchecked(points, scalars))
    rounds = "short" if k <= 2 and kind == 1 else "medium" if k <= 8 else "long"
    name, calldata = f"eip2537_g{kind}msm", msm_input(kind, pairs)
    return Case(f"G{kind} MSM, k = {k}", name, calldata, blst_msm(kind, pairs),
                precompile_gas(name, calldata), blst, arkworks, rounds)


def _map_case(kind: int) -> Case:
    import pyblst
    rng = random.Random(50 + kind)
    u = rng.randrange(1 << 380) if kind == 1 else (rng.randrange(1 << 380), rng.randrange(1 << 380))
    values = (u,) if kind == 1 else u

    def blst():
        element = pyblst.BlstP1Element if kind == 1 else pyblst.BlstP2Element
        return lambda: element.hash_to_group(b"msg", HASH_DST)

    def arkworks():
        raw = b"".join(v.to_bytes(48, "big") for v in values)
        ark = _ark(kind)
        mapped = ark.map_from_fp_be if kind == 1 else ark.map_from_fp2_be
        return lambda: arkworks_encode(mapped(raw))
    name = "eip2537_map_fp_to_g1" if kind == 1 else "eip2537_map_fp2_to_g2"
    calldata = b"".join(v.to_bytes(64, "big") for v in values)
    return Case(f"map to G{kind}", name, calldata, py_ecc_map(kind, u),
                precompile_gas(name, calldata), blst, arkworks, "short")


def _cases() -> Dict[str, Callable[[], Case]]:
    cases: Dict[str, Callable[[], Case]] = {}
    for kind in (1, 2):
        cases[f"g{kind}add"] = lambda kind=kind: _add_case(kind)
        for k in MSM_KS:
            cases[f"g{kind}msm-k{k}"] = lambda kind=kind, k=k: _msm_case(kind, k)
        cases[f"map-g{kind}"] = lambda kind=kind: _map_case(kind)
    return cases


CASES = _cases()


@lru_cache(maxsize=None)
def _case(key: str) -> Case:
    return CASES[key]()


@pytest.mark.parametrize("key", CASES)
def test_contract(benchmark, key):
    case = _case(key)
    code = build_contract(case.contract)
    result = _bench(benchmark, case.group, FAST,
                    lambda: execute(code, case.calldata, engine="fast", schedule="update5-A",
                                    gas=FACTS_GAS),
                    case.rounds, **_facts(case.contract, case.calldata, gas=FACTS_GAS),
                    precompile_gas=case.precompile_gas, operation=case.group)
    assert result.success and result.output == case.expected


@pytest.mark.parametrize("key", CASES)
def test_blst(benchmark, key):
    case = _case(key)
    _bench(benchmark, case.group, BLST, case.blst(), max(case.rounds, 50), operation=case.group)


@pytest.mark.parametrize("key", CASES)
def test_arkworks(benchmark, key):
    case = _case(key)
    output = _bench(benchmark, case.group, ARKWORKS, case.arkworks(), max(case.rounds, 50),
                    operation=case.group)
    assert output == case.expected
