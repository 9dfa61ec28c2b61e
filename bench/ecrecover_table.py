"""ecrecover (ECRECOVER, precompile 0x01, as an EVMMAX contract) beside the precompile's
price and coincurve's time: writes bench/results/ecrecover.md.

    python bench/ecrecover_table.py                    # bench/results/ecrecover.md (~5 s)
    python bench/ecrecover_table.py --out /tmp/ecrecover.md

On seeded random signatures (a quarter of them with v = 29, rejected; each answer checked
against coincurve, libsecp256k1's recovery, where it is installed, else the pure-Python
reference): the bytecode size, execution gas under EIP-6690's and EIP-7747's cost tables
beside ECRECOVER's 3,000, the EIP-6690 gas by part of the code and kind of instruction
(bench/p256_table.py's split), and the time per recovery on the fast engine beside
coincurve's in the same run.
"""
from __future__ import annotations

import datetime
import random
from pathlib import Path
from typing import Callable, Dict, Optional, Tuple

from evm384_native import execute
from evm384_native.evm.keccak import keccak256
from evm384_native.secp256k1 import build_program, recover
from evm384_native.secp256k1.reference import PRECOMPILE_PRICE, words
from evm384_native.secp256k1.usage import random_signature
from machine import git_revision  # bench/machine.py (bench/ is the script's path)
from p256_table import COST_MODELS, cli, split, tables

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "ecrecover.md"
PARTS: Dict[Tuple[str, Optional[str]], str] = {
    ("validation", None): "validation (EVM integers)",
    ("point_r", None): "R: y = sqrt(r^3 + 7), its parity",
    ("scalar_inverse", None): "r^-1, u1, u2 (context mod n)",
    ("double_scalar", "tables"): "tables (G's copied, R's computed)",
    ("double_scalar", "recode"): "GLV split and recoding",
    ("double_scalar", "windows"): "the joint multiplication loop",
    ("double_scalar", None): "the Z = 0 test",
    ("address", None): "Q affine, keccak, output",
    ("setup", None): "setup (SETMODX mod p, constants, memory)"}


def coincurve_recovery() -> Optional[Callable[[bytes], bytes]]:
    """coincurve's recovery as the precompile answers (the address word, or b""), or
    None."""
    try:
        import coincurve
    except ImportError:
        return None

    def run(data: bytes) -> bytes:
        h, v, r, s = words(data)
        if v not in (27, 28):
            return b""
        signature = r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes([v - 27])
        try:
            key = coincurve.PublicKey.from_signature_and_message(
                signature, h.to_bytes(32, "big"), hasher=None)
        except Exception:
            return b""
        return bytes(12) + keccak256(key.format(compressed=False)[1:])[12:]
    return run


def report(seed: int, count: int) -> str:
    program = build_program("ecrecover")
    code = program.code
    rng = random.Random(seed)
    cases = [random_signature(rng, valid=i % 4 != 3) for i in range(count)]
    oracle = coincurve_recovery()
    gas: Dict[str, set] = {costs: set() for costs in COST_MODELS}
    for data in cases:
        expected = oracle(data) if oracle else recover(data)
        for costs in COST_MODELS:
            result = execute(code, data, opcodes="evmmax", engine="fast", costs=costs)
            assert result.success and result.output == expected
            if expected:
                gas[costs].add(result.gas_used)
    parts = split(program, cases[0], PARTS)
    assert sum(parts.values()) in gas["eip-6690"]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["# ECRECOVER (precompile 0x01) as an EVMMAX contract", "",
             f"`python bench/ecrecover_table.py` at commit {git_revision()}, {now}: {count} "
             f"seeded random signatures (seed {seed}, a quarter of them with v = 29), every "
             f"answer checked against {'coincurve' if oracle else 'the pure-Python reference'}"
             ". Gas is execution only (no calldata, no 21,000); the two values of a column "
             "are the two parities of R's y (one negation apart).", ""]
    peers = {"coincurve (libsecp256k1)": oracle} if oracle else {}
    lines += tables("ecrecover", gas, PRECOMPILE_PRICE, code, parts, PARTS.values(), cases,
                    peers, "recovery")
    return "\n".join(lines) + "\n"


def main() -> None:
    cli(report, OUT, __doc__.split("\n")[0])


if __name__ == "__main__":
    main()
