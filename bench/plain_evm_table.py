"""The plain-EVM builds (target="evm", issue 48) beside their EVMMAX builds and the
precompiles: writes bench/results/plain_evm.md.

    python bench/plain_evm_table.py                   # bench/results/plain_evm.md (~1 min)
    python bench/plain_evm_table.py --rounds 3 --out /tmp/plain.md

For each contract built for plain EVM, on its example input (``evm384 gas``'s, seed 1):
execution gas under Osaka's schedule, the EVMMAX build's under EIP-6690, the precompile's
price, the bytecode size, the field operations it ran (MULMOD, ADDMOD, and BN254's
unreduced ADD / SUB) and the gas per operation, the time on the fast engine (median of
interleaved rounds) and the Mgas/s it makes; for ``p256verify`` and ``ecrecover`` the time
of the native library a client runs (OpenSSL through ``cryptography``, libsecp256k1
through ``coincurve``) in the same rounds, where installed.
"""
from __future__ import annotations

import argparse
import datetime
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Optional

from evm384_native import execute
from evm384_native.contracts import BUILT_FOR, USAGE, build_contract
from evm384_native.evm.tracing import Profiler
from machine import git_revision  # bench/machine.py (bench/ is the script's path)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "plain_evm.md"
FIELD_OPS = ("MULMOD", "ADDMOD", "ADD", "SUB")
GAS = 1 << 34          # BLS12's plain-EVM builds run tens of millions of gas: to their end


def _native(name: str, data: bytes) -> Optional[Callable[[], object]]:
    """The native library's job for ``data``, if one is installed here."""
    try:
        if name == "p256verify":
            from cryptography.hazmat.primitives import hashes  # noqa: F401
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives.asymmetric.utils import (
                Prehashed, encode_dss_signature)
            h, r, s = data[:32], int.from_bytes(data[32:64], "big"), int.from_bytes(data[64:96], "big")
            key = ec.EllipticCurvePublicNumbers(int.from_bytes(data[96:128], "big"),
                                                int.from_bytes(data[128:160], "big"),
                                                ec.SECP256R1()).public_key()
            signature = encode_dss_signature(r, s)
            return lambda: key.verify(signature, h, ec.ECDSA(Prehashed(hashes.SHA256())))
        if name == "ecrecover":
            import coincurve
            h, v = data[:32], data[63] - 27
            compact = data[64:128] + bytes([v])
            return lambda: coincurve.PublicKey.from_signature_and_message(compact, h,
                                                                          hasher=None)
    except ImportError:
        return None
    return None


def _ops(code: bytes, data: bytes) -> Counter:
    profiler = Profiler()
    execute(code, data, opcodes="evm", tracer=profiler, gas=GAS)
    return Counter({name: entry.count for name, entry in profiler.by_opcode.items()})


def measure(rounds: int) -> List[Dict[str, object]]:
    rows = []
    for name in BUILT_FOR["evm"]:
        usage = USAGE[name]
        data = usage.example(random.Random(1), usage.example_k, True)
        plain = build_contract(name, target="evm")
        result = execute(plain, data, opcodes="evm", engine="fast", gas=GAS)
        evmmax = execute(build_contract(name, target="evmmax"), data, opcodes="evmmax",
                         engine="fast", costs="eip-6690")
        if not (result.success and evmmax.success and result.output == evmmax.output):
            raise SystemExit(f"{name}: the plain-EVM build ({result.error or 'answered'}) and "
                             f"the EVMMAX build ({evmmax.error or 'answered'}) disagree")
        native = _native(name, data)
        jobs = {"fast": lambda: execute(plain, data, opcodes="evm", engine="fast", gas=GAS)}
        if native is not None:
            jobs["native"] = native
        times: Dict[str, List[float]] = {label: [] for label in jobs}
        for _ in range(rounds):                     # interleaved: one of each per round
            for label, job in jobs.items():
                start = time.perf_counter()
                job()
                times[label].append(time.perf_counter() - start)
        ops = _ops(plain, data)
        field_ops = sum(ops[op] for op in FIELD_OPS)
        median = {label: statistics.median(t) for label, t in times.items()}
        rows.append({"name": name, "k": usage.example_k, "gas": result.gas_used,
                     "evmmax": evmmax.gas_used, "precompile": usage.precompile_gas(data),
                     "bytes": len(plain), "ops": field_ops,
                     "per_op": result.gas_used / max(field_ops, 1), "ms": median["fast"] * 1e3,
                     "mgas": result.gas_used / median["fast"] / 1e6,
                     "native_ms": median["native"] * 1e3 if "native" in median else None})
    return rows


def render(rows: List[Dict[str, object]], rounds: int) -> str:
    lines = [f"# Plain EVM builds (issue 48), {datetime.date.today()}, commit {git_revision()}",
             "", f"`python bench/plain_evm_table.py --rounds {rounds}`; times: medians of "
             f"{rounds} interleaved rounds, fast engine.", "",
             "| contract | k | gas (Osaka) | EVMMAX (EIP-6690) | precompile | bytes | field ops "
             "| gas / op | ms (fast) | Mgas/s | native ms |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        precompile = "-" if r["precompile"] is None else f"{r['precompile']:,}"
        native = "-" if r["native_ms"] is None else f"{r['native_ms']:.3f}"
        lines.append(f"| `{r['name']}` | {r['k']} | {r['gas']:,} | {r['evmmax']:,} | "
                     f"{precompile} | {r['bytes']:,} | {r['ops']:,} | {r['per_op']:.1f} | "
                     f"{r['ms']:.3f} | {r['mgas']:.0f} | {native} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    text = render(measure(args.rounds), args.rounds)
    args.out.write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
