"""p256verify (EIP-7951's P256VERIFY as an EVMMAX contract) beside the precompile's price
and ``cryptography``'s time: writes bench/results/p256.md.

    python bench/p256_table.py                    # bench/results/p256.md (~10 s)
    python bench/p256_table.py --out /tmp/p256.md

On seeded random signatures (each answer checked against ``cryptography`` where it is
installed, else the pure-Python reference): the bytecode size, execution gas under
EIP-6690's and EIP-7747's cost tables (the same bytecode, ``execute(..., costs=...)``)
beside P256VERIFY's 6,900, the EIP-6690 gas by part of the code (the contract's scopes,
``asm.profile.GasByPc``) and, within each part, by kind of instruction (field
arithmetic ADDMODX/SUBMODX/MULMODX; transfers STOREX/LOADX/SETMODX, which also charge the
registers' memory expansion; the rest: EVM control, stack, memory), and the time per
verification on the fast engine beside ``cryptography``'s (OpenSSL) in the same run.
"""
from __future__ import annotations

import argparse
import datetime
import random
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from evm384_native import execute
from evm384_native.asm.disasm import disassemble
from evm384_native.asm.profile import GasByPc
from evm384_native.p256 import build_program
from evm384_native.p256.reference import PRECOMPILE_PRICE, verify
from evm384_native.p256.usage import random_signature
from machine import git_revision  # bench/machine.py (bench/ is the script's path)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "p256.md"
COST_MODELS = ("eip-6690", "eip-7747")
ARITH = {"ADDMODX", "SUBMODX", "MULMODX"}
TRANSFER = {"STOREX", "LOADX", "SETMODX"}
KINDS = ("arithmetic", "transfers", "control")
# a part of the code: (the scope under the contract's, the one under it or None)
PARTS: Dict[Tuple[str, Optional[str]], str] = {("validation", None): "validation (EVM integers)",
         ("scalar_inverse", None): "s^-1, u1, u2 (context mod n)",
         ("double_scalar", "tables"): "tables (G's copied, Q's computed)",
         ("double_scalar", "recode"): "recoding the scalars",
         ("double_scalar", "windows"): "the double-scalar loop",
         ("double_scalar", None): "the Z = 0 test",
         ("check", None): "x-coordinate test, output",
         ("setup", None): "setup (SETMODX mod p, constants, memory)"}


def cryptography_verify():
    """``cryptography``'s verify of (h, r, s, qx, qy) on prehashed h, or None."""
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec, utils
    except ImportError:
        return None

    def check(data: bytes) -> bool:
        h, r, s, qx, qy = (int.from_bytes(data[i:i + 32], "big") for i in range(0, 160, 32))
        key = ec.EllipticCurvePublicNumbers(qx, qy, ec.SECP256R1()).public_key()
        try:
            key.verify(utils.encode_dss_signature(r, s), h.to_bytes(32, "big"),
                       ec.ECDSA(utils.Prehashed(hashes.SHA256())))
            return True
        except InvalidSignature:
            return False
    return check


def split(program, calldata: bytes, parts: Dict[Tuple[str, Optional[str]], str] = PARTS
          ) -> Dict[Tuple[str, str], int]:
    """EIP-6690 gas by (part, kind), ``parts`` naming the contract's scopes (also
    bench/ecrecover_table.py's)."""
    tracer = GasByPc()
    execute(program.code, calldata, opcodes="evmmax", engine="python", tracer=tracer)
    names = {ins.pc: ins.name
             for ins in disassemble(program.code, program.code_size, program.opcodes)}
    found: Counter = Counter()
    for pc, gas in tracer.by_pc.items():
        path = program.source_map[pc].path[1:]
        key = (path[0], path[1] if len(path) > 1 and (path[0], path[1]) in parts else None) \
            if path else ("setup", None)
        if key not in parts:
            key = (key[0], None)
        name = names.get(pc, "")
        kind = "arithmetic" if name in ARITH else "transfers" if name in TRANSFER else "control"
        found[(parts[key], kind)] += gas
    return dict(found)


def parts_table(parts: Dict[Tuple[str, str], int], labels) -> List[str]:
    """The Markdown rows of :func:`split`'s gas, a part a row (``labels`` in order), a
    kind a column, and their sums."""
    lines = ["| part | " + " | ".join(KINDS) + " | total |", "|---|" + "---:|" * 4]
    for label in labels:
        row = [parts.get((label, kind), 0) for kind in KINDS]
        if sum(row):
            lines.append(f"| {label} | " + " | ".join(f"{v:,}" for v in row) +
                         f" | {sum(row):,} |")
    sums = [sum(v for (_, k), v in parts.items() if k == kind) for kind in KINDS]
    lines.append("| **all** | " + " | ".join(f"{v:,}" for v in sums) +
                 f" | **{sum(parts.values()):,}** |")
    return lines


def timings(code: bytes, cases: List[bytes], peers: Dict[str, Callable[[bytes], object]]
            ) -> Dict[str, float]:
    """Microseconds per input: the contract on the fast engine, then each of ``peers``
    (best of three passes over the cases)."""
    def best(run) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            for data in cases:
                run(data)
            times.append((time.perf_counter() - start) / len(cases) * 1e6)
        return min(times)
    out = {"fast engine": best(lambda data: execute(code, data, opcodes="evmmax",
                                                   engine="fast"))}
    for name, peer in peers.items():
        out[name] = best(peer)
    return out


def report(seed: int, count: int) -> str:
    program = build_program("p256verify")
    code = program.code
    rng = random.Random(seed)
    cases = [random_signature(rng, valid=i % 4 != 3) for i in range(count)]
    oracle = cryptography_verify()
    gas: Dict[str, set] = {costs: set() for costs in COST_MODELS}
    for data in cases:
        expected = oracle(data) if oracle else verify(data)
        for costs in COST_MODELS:
            result = execute(code, data, opcodes="evmmax", engine="fast", costs=costs)
            assert result.success and (result.output != b"") == expected
            if expected:
                gas[costs].add(result.gas_used)
    parts = split(program, cases[0])
    total = sum(parts.values())
    assert total == min(gas["eip-6690"])
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["# P256VERIFY (EIP-7951) as an EVMMAX contract", "",
             f"`python bench/p256_table.py` at commit {git_revision()}, {now}: {count} seeded "
             f"random signatures (seed {seed}, a quarter of them invalid), every answer checked "
             f"against {'cryptography' if oracle else 'the pure-Python reference'}. Gas is "
             "execution only (no calldata, no 21,000).", ""]
    peers = {"cryptography (OpenSSL)": oracle} if oracle else {}
    lines += tables("p256verify", gas, PRECOMPILE_PRICE, code, parts, PARTS.values(), cases,
                    peers, "verification")
    return "\n".join(lines) + "\n"


def tables(name: str, gas: Dict[str, set], price: int, code: bytes,
           parts: Dict[Tuple[str, str], int], labels, cases: List[bytes],
           peers: Dict[str, Callable[[bytes], object]], per: str) -> List[str]:
    """A report's Markdown tables (also bench/ecrecover_table.py's): the gas of each cost
    model beside the precompile's ``price`` and the size, :func:`parts_table`, then the
    time per ``per`` of the fast engine and of ``peers``."""
    lines = ["| contract | gas EIP-6690 | gas EIP-7747 | the precompile | bytes |",
             "|---|---:|---:|---:|---:|",
             f"| `{name}` | " + " | ".join(
                 "/".join(f"{g:,}" for g in sorted(gas[c])) for c in COST_MODELS) +
             f" | {price:,} | {len(code):,} |", "",
             "A valid signature's EIP-6690 gas by part of the code and kind of instruction:", ""]
    lines += parts_table(parts, labels)
    lines += ["", f"Time per {per} in this run (microseconds, best of three passes):",
              "", "| implementation | us |", "|---|---:|"]
    for peer, us in timings(code, cases, peers).items():
        lines.append(f"| {peer} | {us:,.1f} |")
    return lines


def cli(report: Callable[[int, int], str], out: Path, description: str) -> None:
    """A table script's command line: --out (default ``out``), --seed, --count; writes
    and prints ``report(seed, count)``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()
    text = report(args.seed, args.count)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text, end="")


def main() -> None:
    cli(report, OUT, __doc__.split("\n")[0])


if __name__ == "__main__":
    main()
