"""The modexp contract (issue 50) beside the MODEXP precompile it would replace (EIP-8200):
writes bench/results/modexp.md.

    python bench/modexp_table.py                  # every row, 5 rounds (minutes)
    python bench/modexp_table.py --quick          # the shapes only, 1 round (seconds)

Rows: every go-ethereum vector (modexp_eip7883.json) and the shapes EIP-8200 names
(tests/modexp_cases.py's ``shapes``: BN254's p and r, secp256k1's p, a full 256-bit
exponent, RSA-2048 and RSA-4096 with E = 65537 and a full exponent). For each: the
contract's execution gas on plain EVM (Osaka) and EVMMAX (EIP-6690), and the total a
transaction pays to call it (:mod:`evm384_native.evm.transaction`: calldata, a cold
access as any contract's, EIP-7623's floor; at 0x05, EIP-8200's place, it would be warm, 2,500
gas less) beside the precompile's price (EIP-7883's, Osaka, and EIP-2565's,
Berlin to Prague) and its total (the same calldata, a warm access); the time of each build
on the fast engine beside GMP's ``powmod`` (gmpy2: the arithmetic a client runs, the values
already parsed), medians of interleaved rounds in one process, and the Mgas/s each makes:
the contract's gas over its time, and EIP-7883's price over GMP's time.

A build that halts or answers wrong stops the run.
"""
from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]          # this checkout's tests/ and bench/

from evm384_native import execute  # noqa: E402
from evm384_native.evm.transaction import call_cost  # noqa: E402
from evm384_native.modexp.reference import (modexp, parse, price_eip2565,  # noqa: E402
                                            price_eip7883)
from machine import cpu_model, git_revision  # noqa: E402
from tests import modexp_cases as cases  # noqa: E402
from tests.modexp_runs import TARGETS, contract  # noqa: E402

OUT = ROOT / "bench" / "results" / "modexp.md"
GAS = 2 ** 32
BATCH_SECONDS = 0.01          # a timed batch repeats a fast call to last at least this long


class Row(NamedTuple):
    name: str
    data: bytes


def rows(quick: bool) -> List[Row]:
    """The shapes, then (unless ``quick``) go-ethereum's vectors."""
    found = [Row(c.name, c.data) for c in cases.shapes()]
    if not quick:
        found += [Row(v.name, v.data) for v in cases.vectors("eip-7883")]
    return found


def _gmp_job(data: bytes) -> Callable[[], bool]:
    """GMP's powmod on the parsed values, checked against the reference once."""
    try:
        import gmpy2
    except ImportError:
        raise SystemExit("gmpy2 is not installed: pip install -e '.[test]'") from None
    parsed = parse(data)
    base, exponent, modulus = (gmpy2.mpz(parsed.base), gmpy2.mpz(parsed.exponent),
                               gmpy2.mpz(parsed.modulus))
    if modulus == 0:
        return lambda: True
    expected = int.from_bytes(modexp(data), "big")
    assert int(gmpy2.powmod(base, exponent, modulus)) == expected
    return lambda: gmpy2.powmod(base, exponent, modulus) is not None


def _contract_job(code: bytes, target: str, data: bytes) -> Callable[[], bool]:
    expected = modexp(data)

    def run() -> bool:
        return execute(code, data, opcodes=target, engine="fast", gas=GAS).output == expected
    return run


def _timed(job: Callable[[], bool]) -> float:
    """One call's time: a batch long enough to read (BATCH_SECONDS), divided."""
    start = time.perf_counter()
    assert job()
    once = time.perf_counter() - start
    repeat = max(1, int(BATCH_SECONDS / max(once, 1e-9)))
    start = time.perf_counter()
    for _ in range(repeat):
        job()
    return (time.perf_counter() - start) / repeat


def measure(selected: List[Row], rounds: int) -> List[Dict[str, object]]:
    codes = {target: contract(target) for target in TARGETS}
    measured = []
    for row in selected:
        jobs: Dict[str, Callable[[], bool]] = {"gmp": _gmp_job(row.data)}
        entry: Dict[str, object] = {"name": row.name, "lengths": cases.declared_lengths(row.data),
                                    "eip7883": price_eip7883(row.data),
                                    "eip2565": price_eip2565(row.data)}
        entry["precompile_total"] = call_cost(entry["eip7883"], row.data, precompile=True).total
        for target, code in codes.items():
            result = execute(code, row.data, opcodes=target, engine="fast", gas=GAS)
            assert result.success and result.output == modexp(row.data), (row.name, target)
            entry[target] = result.gas_used
            entry[f"{target}_total"] = call_cost(result.gas_used, row.data).total
            jobs[target] = _contract_job(code, target, row.data)
        times: Dict[str, List[float]] = {label: [] for label in jobs}
        for _ in range(rounds):                       # interleaved: one of each per round
            for label, job in jobs.items():
                times[label].append(_timed(job))
        for label, samples in times.items():
            entry[f"{label}_seconds"] = statistics.median(samples)
        measured.append(entry)
    return measured


def _ms(entry: Dict[str, object], label: str) -> str:
    return f"{entry[f'{label}_seconds'] * 1e3:.3f}"


def _mgas(gas: object, seconds: object) -> str:
    return f"{gas / seconds / 1e6:,.0f}"


def render(measured: List[Dict[str, object]], rounds: int, quick: bool) -> str:
    command = "python bench/modexp_table.py" + (" --quick" if quick else f" --rounds {rounds}")
    lines = [f"# MODEXP as bytecode (issue 50), {datetime.date.today()}, commit {git_revision()}",
             "", f"`{command}` on {cpu_model()}; times: medians of {rounds} interleaved "
             "rounds in one process, the contract on the fast engine, GMP's powmod (gmpy2) "
             "on parsed values. Gas: execution; total: what a transaction pays past its "
             "21,000 (calldata, access, EIP-7623's floor).", "",
             "| input | bl/el/ml | evm gas | evmmax gas | EIP-7883 | EIP-2565 | evm total "
             "| evmmax total | precompile total | evm ms | evmmax ms | GMP ms | evm Mgas/s "
             "| evmmax Mgas/s | GMP Mgas/s (EIP-7883) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for e in measured:
        bl, el, ml = e["lengths"]
        lines.append(
            f"| {e['name']} | {bl}/{el}/{ml} | {e['evm']:,} | {e['evmmax']:,} | "
            f"{e['eip7883']:,} | {e['eip2565']:,} | {e['evm_total']:,} | "
            f"{e['evmmax_total']:,} | {e['precompile_total']:,} | {_ms(e, 'evm')} | "
            f"{_ms(e, 'evmmax')} | {_ms(e, 'gmp')} | {_mgas(e['evm'], e['evm_seconds'])} | "
            f"{_mgas(e['evmmax'], e['evmmax_seconds'])} | "
            f"{_mgas(e['eip7883'], e['gmp_seconds'])} |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true",
                        help="the shapes only, one round (a smoke run)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else args.rounds
    text = render(measure(rows(args.quick), rounds), rounds, args.quick)
    args.out.write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
