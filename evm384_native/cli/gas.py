"""``evm384 gas``: for each built-in contract and each EVM384 gas schedule, the EVM384 ops,
instructions, gas and bytecode size of one run on the contract's example input, beside
the price of the EIP-2537 precompile doing the same job; for the contracts built for
EVMMAX too (target column "evmmax", schedule "eip-6690": the EIP's tables), their EVMMAX
arithmetic ops in the ops column. Contracts say what their example
input and matching precompile are (``bls12_381.usage.USAGE``), so new ones appear
here without changes."""
from __future__ import annotations

import argparse
import json
import random
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import execute
from ..asm.assembler import EVM384_MNEMONICS, EVMMAX_VECTOR_MNEMONICS
from ..bls12_381.contracts import CONTRACTS, EVMMAX_CONTRACTS, TARGETS, build_contract
from ..bls12_381.usage import USAGE
from ..evm.gas import SCHEDULES
from ..evm.transaction import calldata_gas
from .calldata import example_calldata
from .errors import CliError
from .inputs import contract_name
from .output import write


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "gas", help="ops, instructions, gas and size of each contract beside EIP-2537's price",
        description="Runs each built-in contract (or those named) once per EVM384 gas "
                    "schedule on its example input: random points (a true relation) made "
                    "with --seed, made by blst (pyblst).")
    parser.add_argument("contracts", metavar="CONTRACT", nargs="*",
                        help=f"contracts to run (default all: {', '.join(CONTRACTS)})")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--target", choices=TARGETS + ("all",), default="all",
                        help="EVM384 builds, EVMMAX builds (EIP-6690), or both (default)")
    parser.add_argument("--json", action="store_true", help="one JSON list of rows")
    parser.add_argument("--out", metavar="FILE", help="write to FILE (default stdout)")
    parser.set_defaults(func=command)


EVMMAX_SCHEDULE = "eip-6690"           # the EIP's own gas tables
ARITH_OPS_NOTE = ("arith ops: ADDMOD384 + SUBMOD384 + MULMODMONT384 (evm384), ADDMODX + SUBMODX"
                  " + MULMODX (evmmax); `evm384 run`'s EVMMAX total also counts SETMODX, LOADX"
                  " and STOREX\n"
                  "calldata: EIP-2028's price of the bytes sent (16 gas a non-zero byte, 4 a"
                  " zero byte; a hint included); total = gas + calldata; its total: the"
                  " precompile's price + the calldata of its own input for the same job\n")


def _runs(name: str, targets: List[str]) -> List[Tuple[str, str]]:
    """(target, schedule) pairs to run ``name`` with."""
    runs = [("evm384", schedule) for schedule in SCHEDULES] if "evm384" in targets else []
    if "evmmax" in targets and name in EVMMAX_CONTRACTS:
        runs.append(("evmmax", EVMMAX_SCHEDULE))
    return runs


def _execute(code: bytes, calldata: bytes, target: str, schedule: str):
    if target == "evm384":
        return execute(code, calldata, engine="fast", schedule=schedule)
    return execute(code, calldata, engine="fast", opcodes=target)


def rows(names: List[str], seed: int, targets: Sequence[str] = ("evm384",)
         ) -> List[Dict[str, Any]]:
    """One row per contract, target and schedule (a contract without a declared example
    input: its size only)."""
    found = []
    for name in names:
        usage = USAGE.get(name)
        calldata: Optional[bytes] = None
        price: Optional[int] = None
        price_total: Optional[int] = None
        if usage is not None:
            calldata = example_calldata(name, random.Random(seed), usage.example_k, True)
            price = usage.precompile_gas(calldata)
            if price is not None:
                price_total = price + calldata_gas(usage.precompile_input(calldata))
        for target, schedule in _runs(name, list(targets)):
            code = build_contract(name, target=target)
            row: Dict[str, Any] = {
                "contract": name, "target": target, "schedule": schedule, "bytes": len(code),
                "k": usage.example_k if usage else None, "evm384_ops": None,
                "instructions": None, "gas": None, "success": None,
                "calldata_gas": None if calldata is None else calldata_gas(calldata),
                "total_gas": None, "precompile": usage.precompile if usage else None,
                "precompile_gas": price, "precompile_total_gas": price_total}
            if calldata is not None:
                result = _execute(code, calldata, target, schedule)
                ops = EVM384_MNEMONICS if target == "evm384" else EVMMAX_VECTOR_MNEMONICS
                row.update(evm384_ops=sum(result.opcode_counts.get(op, 0) for op in ops),
                           instructions=result.steps, gas=result.gas_used,
                           total_gas=result.gas_used + row["calldata_gas"],
                           success=result.success)
            found.append(row)
    return found


def table(found: List[Dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        return "-" if value is None else f"{value:,}" if isinstance(value, int) else str(value)
    header = ("contract", "k", "schedule", "target", "arith ops", "instructions", "gas",
              "calldata", "total", "bytes", "EIP-2537 precompile", "its gas", "its total")
    keys = ("evm384_ops", "instructions", "gas", "calldata_gas", "total_gas", "bytes")
    lines = [header] + [(row["contract"], cell(row["k"]), row["schedule"], row["target"],
                         *(cell(row[key]) for key in keys), cell(row["precompile"]),
                         cell(row["precompile_gas"]), cell(row["precompile_total_gas"]))
                        for row in found]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(text.ljust(width) if i in (0, 2, 3, 10) else text.rjust(width)
                               for i, (text, width) in enumerate(zip(line, widths))).rstrip()
                     for line in lines) + "\n" + ARITH_OPS_NOTE


def command(args: argparse.Namespace) -> int:
    names = [contract_name(text) for text in args.contracts] or list(CONTRACTS)
    targets = list(TARGETS) if args.target == "all" else [args.target]
    found = rows(names, args.seed, targets)
    failed = [row["contract"] for row in found if row["success"] is False]
    write(json.dumps(found) + "\n" if args.json else table(found), args.out)
    if failed:
        raise CliError(f"example run failed for {', '.join(sorted(set(failed)))}")
    return 0
