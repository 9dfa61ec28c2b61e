"""Issue 44's ratios: the 256-bit EVMMAX contracts on the fast engine beside the native
libraries, in one process, medians of interleaved rounds.

    python bench/evmmax_speed.py                 # 30 rounds of each contest (~1 min)
    python bench/evmmax_speed.py --rounds 60 --only ecrecover p256verify
    python bench/evmmax_speed.py --baseline /tmp/base   # also an older build, same rounds

``--baseline DIR``: DIR holds another checkout's package renamed ``evm384_native_base``
(its cffi module renamed to match in csrc/build_ffi.py, built in place); each contest then
runs the contracts on both builds, so before and after are measured in the same rounds.
``--baseline-code`` (with ``--baseline``): the signature contests also run the baseline's
bytecode (built by its package) on this tree's engine, so that a change of bytecode is
measured apart from the engine's.

Contests (each round runs every contender of a contest once, in turn; every answer
checked): ``ecrecover`` (a batch of seeded signatures) against coincurve's recovery
(libsecp256k1); ``p256verify`` against ``cryptography``'s verify (OpenSSL);
``bn254_pairing_check`` with 4 pairs against groth16py's ``Verifier.verify`` (arkworks,
one public input: 4 pairs and its input's MSM); the 2-pair BN254 check against the
2-pair BLS12-381 check (``pairing_product_is_one``), both EVMMAX builds; the EVM384
BLS12-381 check against pyblst. Besides the ratios: each EVMMAX contract's Mgas/s under
EIP-6690, its gas over its median time net of an empty call's (``execute(b"\\x00")``).
"""
from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]   # this checkout's

import groth16_cases  # noqa: E402  (tests/groth16_cases.py)
from bn254_peers import instance  # noqa: E402  (bench/bn254_peers.py)
from ecrecover_table import coincurve_recovery  # noqa: E402  (bench/ecrecover_table.py)
from machine import cpu_model, git_revision  # noqa: E402  (bench/machine.py)
from p256_table import cryptography_verify  # noqa: E402  (bench/p256_table.py)
from peers import PEER_CHECKS  # noqa: E402  (bench/peers.py)

from evm384_native import bls12_381, bn254, execute  # noqa: E402
from evm384_native.bls12_381.oracle import encode_pairs, random_product_case  # noqa: E402
from evm384_native.p256 import build_program as p256_program  # noqa: E402
from evm384_native.p256.usage import random_signature as p256_signature  # noqa: E402
from evm384_native.secp256k1 import build_program as secp_program  # noqa: E402
from evm384_native.secp256k1.usage import random_signature as secp_signature  # noqa: E402

ONE = (1).to_bytes(32, "big")
BATCH = 8          # signatures a round (the same ones every round)


def _signatures(codes: Dict[str, bytes], make, oracle, seed: int,
                engines: Dict[str, Callable]):
    """``BATCH`` valid signatures, the contract's runs (each code, label: bytes, on each
    engine build) and the oracle's over all of them, each answer checked once here."""
    rng = random.Random(seed)
    cases = [make(rng, valid=True) for _ in range(BATCH)]
    answers = [oracle(data) for data in cases]
    for code in codes.values():
        results = [execute(code, data, engine="fast", opcodes="evmmax") for data in cases]
        for result, answer in zip(results, answers):
            assert result.success and (result.output == answer if isinstance(answer, bytes)
                                       else int.from_bytes(result.output, "big") == answer)

    def contract(run: Callable, code: bytes) -> Callable[[], bool]:
        def all_cases() -> bool:
            for data in cases:
                run(code, data, engine="fast", opcodes="evmmax")
            return True
        return all_cases

    def peer() -> bool:
        for data in cases:
            oracle(data)
        return True
    return peer, {f"{label}{code_label}": contract(run, code)
                  for code_label, code in codes.items() for label, run in engines.items()}


def contests(engines: Dict[str, Callable], base_codes: Optional[Dict[str, bytes]] = None
             ) -> Dict[str, Dict[str, Callable[[], bool]]]:
    """Per contest, its contenders: the peer first, then the contract on each of
    ``engines`` (label: an ``execute``); ``base_codes`` (contract name: bytes): another
    build's signature contracts, run on the engines too."""
    out: Dict[str, Dict[str, Callable[[], bool]]] = {}

    def codes(name: str, program) -> Dict[str, bytes]:
        own = {"": program(name).code}
        return own if base_codes is None else {**own, " base code": base_codes[name]}
    peer, ours = _signatures(codes("ecrecover", secp_program), secp_signature,
                             coincurve_recovery(), 44, engines)
    out["ecrecover"] = {"coincurve": peer, **ours}
    peer, ours = _signatures(codes("p256verify", p256_program), p256_signature,
                             cryptography_verify(), 44, engines)
    out["p256verify"] = {"cryptography": peer, **ours}

    import groth16py
    _, g16_vk, _ = groth16_cases.setup(1)
    rng = random.Random(44)
    proof, public = groth16_cases.prove(1, rng.randrange(1, groth16_cases.R))
    verifier = groth16py.Verifier(g16_vk)
    proof_bytes = groth16_cases.proof_to_bytes(proof)
    four = instance("pairing", 4)
    bn_code = bn254.build_contract("bn254_pairing_check", target="evmmax")
    two = instance("pairing", 2)
    pairs = random_product_case(random.Random(14), 2, True)
    bls_code = bls12_381.build_contract("pairing_product_is_one", target="evmmax")
    bls_data = bls12_381.encode_calldata("pairing_product_is_one", encode_pairs(pairs))
    evm384_code = bls12_381.build_contract("pairing_product_is_one", target="evm384")

    def answers_one(run: Callable, code: bytes, data: bytes, target: str = "evmmax"
                    ) -> Callable[[], bool]:
        return lambda: run(code, data, engine="fast", opcodes=target).output == ONE
    out["bn254 k=4"] = {"groth16py verify": lambda: verifier.verify(proof_bytes, public)
                        is True,
                        **{f"bn254 k=4 {label}": answers_one(run, bn_code, four.data)
                           for label, run in engines.items()}}
    for label, run in engines.items():    # each build's BN254 check against its BLS12-381
        out[f"bn254 k=2 {label}"] = {
            f"bls12-381 evmmax k=2 {label}": answers_one(run, bls_code, bls_data),
            f"bn254 k=2 {label}": answers_one(run, bn_code, two.data)}
    out["bls12-381"] = {"pyblst": PEER_CHECKS["pyblst"](pairs),
                        **{f"evm384 check k=2 {label}": answers_one(run, evm384_code,
                                                                   bls_data, "evm384")
                           for label, run in engines.items()}}
    return out


def run(contest: Dict[str, Callable[[], bool]], rounds: int) -> Dict[str, List[float]]:
    """Each contender's times over ``rounds`` rounds, every contender once a round in turn,
    after two warm-up rounds; the garbage collector off meanwhile."""
    times: Dict[str, List[float]] = {label: [] for label in contest}
    gc.disable()
    try:
        for r in range(rounds + 2):                       # two warm-up rounds
            for label, job in contest.items():
                start = time.perf_counter()
                assert job() is True
                if r >= 2:
                    times[label].append(time.perf_counter() - start)
    finally:
        gc.enable()
    return times


def _engines(baseline: Optional[str]) -> Dict[str, Callable]:
    """This tree's ``execute``, and the baseline's when given (its directory)."""
    engines: Dict[str, Callable] = {"(this tree)": execute}
    if baseline:
        sys.path.insert(0, baseline)
        from evm384_native_base import execute as base_execute
        engines["(baseline)"] = base_execute
    return engines


def _base_codes() -> Dict[str, bytes]:
    """The signature contracts as the baseline's package builds them (EVMMAX)."""
    from evm384_native_base.p256 import build_program as base_p256
    from evm384_native_base.secp256k1 import build_program as base_secp
    return {"ecrecover": base_secp("ecrecover").code, "p256verify": base_p256("p256verify").code}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--only", nargs="*", help="contest names")
    parser.add_argument("--baseline", help="a directory holding evm384_native_base")
    parser.add_argument("--baseline-code", action="store_true",
                        help="also run the baseline's signature bytecode on both engines")
    args = parser.parse_args()
    if args.baseline_code and not args.baseline:
        parser.error("--baseline-code needs --baseline")
    print(f"{git_revision()}, {cpu_model()}, {args.rounds} interleaved rounds; medians, "
          f"and each contender's ratio to the first of its contest")
    engines = _engines(args.baseline)
    for name, contest in contests(engines, _base_codes() if args.baseline_code
                                  else None).items():
        if args.only and not any(name.startswith(only) for only in args.only):
            continue
        times = run(contest, args.rounds)
        base, base_t = next(iter(times.items()))
        base_median = statistics.median(base_t)
        for label, t in times.items():
            print(f"{name:11} {label:36} {statistics.median(t) * 1e6:9.1f} us  "
                  f"{statistics.median(t) / base_median:.3f}x")


if __name__ == "__main__":
    main()
