"""``evm384 gas``: for each built-in contract and each EVM384 gas schedule, the EVM384 ops,
instructions, gas and bytecode size of one run on the contract's example input, and what a
transaction pays for the call (calldata, access, total: :mod:`..evm.transaction`), beside
the precompile doing the same job (EIP-2537's for BLS12-381, EIP-1108's prices for BN254)
under the same rules; for the contracts built for EVMMAX too, one row per EVMMAX cost model
(schedule column "eip-6690", "eip-7747", or a user's table from ``--costs FILE``), their
EVMMAX arithmetic ops in the ops column.
Contracts say what their example input and matching precompile are
(``evm384_native.contracts.USAGE``), so new ones appear here without changes."""
from __future__ import annotations

import argparse
import json
import random
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import execute
from ..asm.assembler import EVMMAX_VECTOR_MNEMONICS
from ..contracts import CONTRACTS, TARGETS, USAGE, build_contract, targets_of
from ..evm.costs import COST_MODELS, EvmmaxCosts
from ..evm.forks import OSAKA_TRANSACTION_GAS_CAP
from ..evm.gas import SCHEDULES
from ..evm.opcode_sets import OPCODE_SETS
from ..evm.opcodes import EVM384_MNEMONICS, EVM768_MNEMONICS
from ..evm.transaction import CallCost, call_cost
from .calldata import example_calldata
from .errors import RunFailed, not_applied, warn
from .gas_limit import add_gas_argument, failure_text
from .inputs import contract_name, cost_model
from .output import write


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "gas", help="ops, instructions, gas and size of each contract beside its precompile's "
                    "price",
        description="Runs each built-in contract (or those named) once per EVM384 gas "
                    "schedule on its example input: random points (a true relation) made "
                    "with --seed (BLS12-381's by blst, pyblst; BN254's in Python).")
    parser.add_argument("contracts", metavar="CONTRACT", nargs="*",
                        help=f"contracts to run (default all: {', '.join(CONTRACTS)})")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--target", choices=TARGETS + ("all",), default="all",
                        help="EVM384 builds, EVMMAX builds (EIP-6690), or both (default)")
    parser.add_argument("--costs", action="append", metavar="NAME|FILE",
                        help="EVMMAX cost model to price with: a name "
                             f"({', '.join(COST_MODELS)}) or a JSON table file; repeat for "
                             "several (default: every named model)")
    add_gas_argument(parser, TABLE_GAS)
    parser.add_argument("--json", action="store_true", help="one JSON list of rows")
    parser.add_argument("--out", metavar="FILE", help="write to FILE (default stdout)")
    parser.set_defaults(func=command)


NOTES = ("arith ops: ADDMOD384 + SUBMOD384 + MULMODMONT384 (evm384), ADDMODX + SUBMODX + "
         "MULMODX (evmmax), ADDMOD + MULMOD (evm); `evm384 run`'s EVMMAX total also counts SETMODX, LOADX and STOREX\n"
         "schedule: the EVM384 schedule, or the EVMMAX cost model (evm.costs)\n"
         "gas: execution; calldata: EIP-2028's price of the bytes sent (a hint included); "
         "access: EIP-2929, the contract called cold (2,600), the precompile warm (100); "
         "total: their sum, or EIP-7623's floor (10 gas a calldata token) if higher; "
         "not counted: the 21,000 of every transaction\n"
         "its gas / its calldata / its access / its total: the same for the precompile called "
         "with its own input for the same job\n"
         "its EIP-7904 gas: EIP-7904's measured gas for the precompile's job (its slowest client's "
         "time at 100 Mgas/s; ECMUL, the MSMs, the maps: not measured there)\n"
         f"*: above EIP-7825's per-transaction cap ({OSAKA_TRANSACTION_GAS_CAP:,} gas from "
         "Osaka): no transaction can run it\n")
# a failed run's gas used is the limit, not a cost: the row shows why instead (the JSON row:
# success false, error, no gas)
# every build's example runs to its end: BLS12-381's plain-EVM builds take tens of millions
# of gas, above a block's and EIP-7825's per-transaction cap (the rows say so)
TABLE_GAS = 1 << 32
GAS_LIMIT_NOTE = ("gas limit: {limit:,} a run (--gas); a run that fails shows "
                  "\"failed: ...\" in the gas column and has no total\n")


# The field arithmetic a target's runs count in the ops column (a target not here: none)
_ARITHMETIC = {"evm384": EVM384_MNEMONICS, "evm768": EVM768_MNEMONICS,
               "evmmax": EVMMAX_VECTOR_MNEMONICS, "evm": ("ADDMOD", "MULMOD")}
# How a run is priced: the schedule column, and the pricing option of ``execute``
Pricing = Tuple[str, Dict[str, Any]]


def _pricings(opcodes: str, models: Sequence[EvmmaxCosts]) -> List[Pricing]:
    """Each way a run with the opcode set ``opcodes`` is priced, from the set's data: the
    EVM384 schedules where they apply, the cost models that price its instructions, else
    mainnet's gas alone (one run, schedule "-")."""
    if OPCODE_SETS[opcodes].scheduled:
        return [(name, {"schedule": name}) for name in SCHEDULES]
    priced = [(model.name, {"costs": model}) for model in models if model.opcodes == opcodes]
    return priced or [("-", {})]


def _runs(name: str, targets: List[str], models: Sequence[EvmmaxCosts]
          ) -> List[Tuple[str, Pricing]]:
    """(target, pricing) pairs to run ``name`` with (a target's code runs with the opcode
    set of its name)."""
    return [(target, pricing) for target in targets_of(name) if target in targets
            for pricing in _pricings(target, models)]


def rows(names: List[str], seed: int, targets: Sequence[str] = ("evm384",),
         models: Sequence[EvmmaxCosts] = tuple(COST_MODELS.values()),
         gas: int = TABLE_GAS) -> List[Dict[str, Any]]:
    """One row per contract, target and schedule (EVMMAX: per cost model in ``models``),
    each run with the gas limit ``gas``; a contract without a declared example input: its
    size only. A failed run's row has its ``error`` and no gas, counts or total."""
    found = []
    for name in names:
        usage = USAGE.get(name)
        calldata: Optional[bytes] = None
        precompile: Optional[CallCost] = None
        measured: Optional[int] = None
        if usage is not None:
            calldata = example_calldata(name, random.Random(seed), usage.example_k, True)
            price = usage.precompile_gas(calldata)
            measured = usage.measured_gas(calldata)
            if price is not None:
                precompile = call_cost(price, usage.precompile_input(calldata), precompile=True)
        for target, (label, pricing) in _runs(name, list(targets), models):
            code = build_contract(name, target=target)
            row: Dict[str, Any] = {
                "contract": name, "target": target, "schedule": label,
                "bytes": len(code), "k": usage.example_k if usage else None,
                "evm384_ops": None, "instructions": None, "gas": None, "success": None,
                "error": None, "gas_limit": gas,
                "calldata_gas": None, "access_gas": None, "floor_gas": None,
                "total_gas": None, "precompile": usage.precompile if usage else None,
                **_precompile_fields(precompile), "precompile_measured_gas": measured}
            if calldata is not None:
                result = execute(code, calldata, gas=gas, engine="fast", opcodes=target,
                                 **pricing)
                ops = _ARITHMETIC.get(target, ())
                cost = call_cost(result.gas_used, calldata)
                row.update(success=result.success, error=result.error,
                           calldata_gas=cost.calldata, access_gas=cost.access)
                if result.success:
                    row.update(evm384_ops=sum(result.opcode_counts.get(op, 0) for op in ops),
                               instructions=result.steps, gas=result.gas_used,
                               floor_gas=cost.floor, total_gas=cost.total)
            found.append(row)
    return found


def _precompile_fields(cost: Optional[CallCost]) -> Dict[str, Optional[int]]:
    return {"precompile_gas": cost.execution if cost else None,
            "precompile_calldata_gas": cost.calldata if cost else None,
            "precompile_access_gas": cost.access if cost else None,
            "precompile_total_gas": cost.total if cost else None}


_COLUMNS = (("contract", "contract"), ("k", "k"), ("schedule", "schedule"),
            ("target", "target"), ("arith ops", "evm384_ops"),
            ("instructions", "instructions"), ("gas", "gas"), ("calldata", "calldata_gas"),
            ("access", "access_gas"), ("total", "total_gas"), ("bytes", "bytes"),
            ("precompile", "precompile"), ("its gas", "precompile_gas"),
            ("its calldata", "precompile_calldata_gas"), ("its access", "precompile_access_gas"),
            ("its total", "precompile_total_gas"), ("its EIP-7904 gas", "precompile_measured_gas"))
_LEFT = {"contract", "schedule", "target", "precompile"}


def table(found: List[Dict[str, Any]], gas: int = TABLE_GAS) -> str:
    """The rows as a text table, then the notes (``gas``: the runs' gas limit)."""
    def cell(row: Dict[str, Any], key: str) -> str:
        value = row[key]
        if key == "gas" and row["success"] is False:
            value = f"failed: {row['error']}"
        elif key == "gas" and value is not None and value > OSAKA_TRANSACTION_GAS_CAP:
            return f"{value:,}*"
        return "-" if value is None else f"{value:,}" if isinstance(value, int) else str(value)
    header = tuple(title for title, _ in _COLUMNS)
    lines = [header] + [tuple(cell(row, key) for _, key in _COLUMNS) for row in found]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(text.ljust(width) if header[i] in _LEFT else text.rjust(width)
                               for i, (text, width) in enumerate(zip(line, widths))).rstrip()
                     for line in lines) + "\n" + NOTES + GAS_LIMIT_NOTE.format(limit=gas)


def command(args: argparse.Namespace) -> int:
    names = [contract_name(text) for text in args.contracts] or list(CONTRACTS)
    targets = list(TARGETS) if args.target == "all" else [args.target]
    models = [cost_model(text) for text in args.costs] if args.costs else \
        list(COST_MODELS.values())
    found = rows(names, args.seed, targets, models, args.gas)
    built_for = sorted({row["target"] for row in found})
    if args.costs and EvmmaxCosts.opcodes not in built_for:     # no build the models price
        warn(not_applied("--costs", ", ".join(args.costs), "/".join(built_for),
                         EvmmaxCosts.opcodes))
    write(json.dumps(found) + "\n" if args.json else table(found, args.gas), args.out)
    ran = [row for row in found if row["success"] is not None]
    failed = [row for row in ran if not row["success"]]
    if failed:
        first = failed[0]
        raise RunFailed(f"{len(failed)} of {len(ran)} example runs failed, first "
                        f"{first['contract']} ({first['schedule']}): "
                        f"{failure_text(first['error'], args.gas)}")
    return 0
