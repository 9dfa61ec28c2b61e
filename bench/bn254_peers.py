"""The BN254 contracts beside the alt_bn128 precompiles, for ``bench/bn254_table.py`` and
``bench/test_bench_bn254.py``: the inputs (with their answers), the EIP-1108 prices, and
rounds that time the contracts on the fast engine beside a native implementation (revm's
precompiles through PyPI's ``pyrevm``) and a pure-Python one (py_ecc's ``optimized_bn128``
with the EIPs' input rules, ``tests/bn254_cases.reference``), each run checking its answer.

Native peer: a message call to 0x06 / 0x07 / 0x08 on one reused pyrevm ``EVM`` (not
committed). A call costs something before any arithmetic (pyrevm's argument conversion,
revm's transaction set-up and validation), so the rounds also time a trivial call on each
side: ECADD of the empty input on revm (the precompile's own path, adding two points at
infinity) and a one-byte STOP contract on revm and on our fast engine (``execute``'s own
cost). ``net`` figures subtract ECADD-of-empty from the precompile and STOP from the
contracts; raw figures subtract nothing.
"""
from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

_TESTS = str(Path(__file__).resolve().parents[1] / "tests")
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import bn254_cases as cases  # noqa: E402  (tests/bn254_cases.py)

from evm384_native import execute  # noqa: E402
from evm384_native.bn254 import build_contract, pairing_hint  # noqa: E402

import interleaved  # noqa: E402  (bench/interleaved.py)

OPS = ("add", "mul", "pairing", "hinted")
CONTRACT = {"add": "bn254_add", "mul": "bn254_mul", "pairing": "bn254_pairing_check",
            "hinted": "bn254_pairing_check_hinted"}
PRECOMPILE_OP = {"add": "add", "mul": "mul", "pairing": "pairing", "hinted": "pairing"}
TARGETS = ("evmmax", "evm384")
ONE, ZERO = cases.ONE, cases.ZERO
STOP = b"\x00"
STOP_ADDRESS = "0x" + "22" * 20

# labels of the contenders in a round
REVM = "revm precompile (pyrevm message call)"
REVM_EMPTY = "revm: ECADD of empty input (call overhead)"
REVM_STOP = "revm: call to a STOP contract"
FAST_STOP = "fast engine: STOP contract (call overhead)"
PY_ECC = "py_ecc optimized_bn128 (pure Python, EIP rules)"
PROVER = "hint prover (pairing_hint, fast engine)"


def contract_label(target: str) -> str:
    return f"{target.upper()} build, fast engine"


def precompile_gas(op: str, k: int = 0) -> int:
    """EIP-1108: ECADD 150, ECMUL 6,000, ECPAIRING 34,000 k + 45,000."""
    return {"add": 150, "mul": 6_000}.get(PRECOMPILE_OP[op], 34_000 * k + 45_000)


@dataclass(frozen=True)
class Instance:
    op: str
    k: int                 # pairs (pairing checks); 0 for add and mul
    data: bytes            # the precompile's input
    calldata: bytes        # the contract's: data, then the hint for the hinted check
    expected: bytes        # the answer: py_ecc's (add, mul), by construction (pairings)

    @property
    def hint(self) -> bytes:
        return self.calldata[len(self.data):]


@lru_cache(maxsize=None)
def instance(op: str, k: int = 0) -> Instance:
    """A valid input of ``op``, fixed by ``op`` and ``k``: a random P + Q; a random P times a
    random 256-bit scalar; k pairs whose product is one for k >= 2 (answer 1) and is not for
    k = 1 (answer 0: one finite pair cannot multiply to one, as in bench/evmmax_table.py)."""
    rng = random.Random(f"bn254 {op} {k}")
    if op == "add":
        data = cases.encode_g1(cases.random_g1(rng)) + cases.encode_g1(cases.random_g1(rng))
    elif op == "mul":
        data = cases.encode_g1(cases.random_g1(rng)) + cases.encode_words(rng.getrandbits(256))
    else:
        rng = random.Random(f"bn254 pairing {k}")       # the hinted check: the same pairs
        data = cases.pairing_instance(rng, k, k >= 2)
    if op in ("add", "mul"):
        expected = cases.reference(op, data)
        assert expected is not None, f"generated {op} input is invalid"
    else:
        expected = ONE if k >= 2 else ZERO
    calldata = data + pairing_hint(data) if op == "hinted" else data
    return Instance(op, k, data, calldata, expected)


@lru_cache(maxsize=None)
def code(op: str, target: str) -> bytes:
    return build_contract(CONTRACT[op], target=target)


def run_contract(inst: Instance, target: str, wrong: Optional[List[str]] = None, **options):
    """One execution of ``inst`` on ``target``'s build, its answer checked: a wrong one
    raises AssertionError, or is appended to ``wrong`` (a list of messages) if given."""
    result = execute(code(inst.op, target), inst.calldata, opcodes=target, **options)
    if not (result.success and result.output == inst.expected):
        message = (f"{CONTRACT[inst.op]} ({target}, k = {inst.k}, {options}): answered "
                   f"{result.output.hex() or '(nothing)'} ({result.error or 'success'}), "
                   f"expected {inst.expected.hex()}")
        if wrong is None:
            raise AssertionError(message)
        wrong.append(message)
    return result


def revm_available() -> bool:
    return cases.revm_available()


class Revm:
    """One reused pyrevm EVM (Prague): message calls to the precompiles, not committed."""

    def __init__(self) -> None:
        from pyrevm import EVM, AccountInfo
        self.evm = EVM(spec_id=cases.REVM_SPEC)
        self.evm.insert_account_info(STOP_ADDRESS, AccountInfo(code=STOP))

    def call(self, to: str, data: bytes) -> bytes:
        return bytes(self.evm.message_call(caller=cases.CALLER, to=to, calldata=data,
                                           gas=cases.GAS))

    def precompile(self, op: str, data: bytes) -> bytes:
        return self.call("0x" + cases.ADDRESS[PRECOMPILE_OP[op]].to_bytes(20, "big").hex(), data)


def calls(inst: Instance, revm: Optional[Revm], with_py_ecc: bool,
          with_prover: bool = True) -> Dict[str, Tuple[Callable[[], bytes], bytes]]:
    """Every contender of a round for ``inst``: label -> (call returning its output, the
    right output)."""
    out: Dict[str, Tuple[Callable[[], bytes], bytes]] = {}
    for target in TARGETS:
        the_code = code(inst.op, target)
        out[contract_label(target)] = (
            lambda the_code=the_code, target=target: (lambda r: r.output if r.success else None)(
                execute(the_code, inst.calldata, engine="fast", opcodes=target)),
            inst.expected)
    out[FAST_STOP] = (lambda: execute(STOP, b"", engine="fast").success, True)
    if revm is not None:
        out[REVM] = (lambda: revm.precompile(inst.op, inst.data), inst.expected)
        out[REVM_EMPTY] = (lambda: revm.precompile("add", b""), bytes(64))
        out[REVM_STOP] = (lambda: revm.call(STOP_ADDRESS, b""), b"")
    if with_py_ecc:
        out[PY_ECC] = (lambda: cases.reference(PRECOMPILE_OP[inst.op], inst.data), inst.expected)
    if with_prover and inst.op == "hinted":
        out[PROVER] = (lambda: pairing_hint(inst.data), inst.hint)
    return out


def contenders(inst: Instance, revm: Optional[Revm], with_py_ecc: bool,
               with_prover: bool = True) -> Tuple[Dict[str, Callable[[], bool]], Dict[str, str]]:
    """The runs of a round, each returning True when its output is right (what
    ``interleaved.in_turn`` asserts), and the contenders that answered wrong in a first
    call (label -> message). Those are still timed, each checked against its own first
    output (so that a run that changes is still caught), and reported as wrong."""
    runs: Dict[str, Callable[[], bool]] = {}
    wrong: Dict[str, str] = {}
    for label, (call, right) in calls(inst, revm, with_py_ecc, with_prover).items():
        first = call()
        if first != right:
            wrong[label] = (f"{label}, {CONTRACT[inst.op]} k = {inst.k}: answered "
                            f"{first.hex() if isinstance(first, bytes) else first!r}, "
                            f"expected {right.hex() if isinstance(right, bytes) else right!r}")
        runs[label] = lambda call=call, answer=first: call() == answer
    return runs, wrong


OVERHEAD = {contract_label(t): FAST_STOP for t in TARGETS}
OVERHEAD.update({REVM: REVM_EMPTY, PROVER: FAST_STOP})


def net(times: Dict[str, List[float]], rounds: int) -> Dict[str, dict]:
    """Min and median of each contender less those of its side's trivial call (``OVERHEAD``),
    and their ratios to revm's precompile so reduced (where revm ran)."""
    times = {label: t[-rounds:] for label, t in times.items()}
    rows: Dict[str, dict] = {}
    for label, overhead in OVERHEAD.items():
        if label in times and overhead in times:
            rows[label] = {"min": min(times[label]) - min(times[overhead]),
                           "median": (statistics.median(times[label])
                                      - statistics.median(times[overhead]))}
    if REVM in rows:
        for row in rows.values():
            row["min ratio"] = row["min"] / rows[REVM]["min"]
            row["median ratio"] = row["median"] / rows[REVM]["median"]
    return rows


def summarize(times: Dict[str, List[float]], rounds: int) -> dict:
    baseline = REVM if REVM in times else contract_label("evm384")
    return {"interleaved": interleaved.summary(times, baseline, rounds),
            "net": net(times, rounds)}


def quiet(one_round: Callable[[], None]) -> Callable[[], None]:
    """``one_round`` with the garbage collector run before it and off during it (so that
    no contender pays for another's garbage)."""
    def run() -> None:
        gc.collect()
        gc.disable()
        try:
            one_round()
        finally:
            gc.enable()
    return run


def timed_rounds(inst: Instance, revm: Optional[Revm], rounds: int, warmup: int = 1,
                 with_py_ecc: bool = False) -> dict:
    """``warmup + rounds`` interleaved rounds (outside pytest-benchmark), summarized."""
    runs, wrong = contenders(inst, revm, with_py_ecc)
    one_round, times = interleaved.in_turn(runs)
    one_round = quiet(one_round)
    for _ in range(warmup + rounds):
        one_round()
    return {**summarize(times, rounds), "wrong": wrong}


def py_ecc_times(inst: Instance, rounds: int) -> List[float]:
    """py_ecc's reference in rounds of its own (a pairing takes ~0.4 s a pair there)."""
    out: List[float] = []

    def one() -> None:
        start = time.perf_counter()
        assert cases.reference(PRECOMPILE_OP[inst.op], inst.data) == inst.expected
        out.append(time.perf_counter() - start)
    for _ in range(rounds):
        quiet(one)()
    return out
