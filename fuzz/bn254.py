"""The BN254 contracts (bn254_add, bn254_mul, bn254_pairing_check) against the precompiles
they mimic, ECADD 0x06, ECMUL 0x07 and ECPAIRING 0x08, on random and mutated inputs: py-evm's
precompile functions and revm's (pyrevm, where installed) must agree with each other, and the
contract must return their output where they succeed and fail as they do (INVALID: an
exceptional halt consuming the gas, no output) where they fail.

Like the eip2537 mode, the contract runs as ``build_contract(name, target=...)`` on one of
the engines; :func:`fuzz` takes the runner as an argument, so that the loop can be tested
with a stand-in before the contracts exist (tests/test_fuzz_bn254.py).

The inputs and oracles come from tests/bn254_cases.py, which shares no code with the
contracts; run from the repository root (as ``python -m fuzz`` is), where ``tests`` imports.
Needs the test extras (py-evm, py_ecc; pyrevm for the second oracle).
"""
from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Callable, Dict, List, NamedTuple, Optional, TextIO, Tuple

from evm384_native.asm.failure import HALT
from tests import bn254_cases as cases

from .eip2537 import _bit_flip

RunResult = Tuple[bool, bytes]                     # (success, output), as a contract call ends
Runner = Callable[[str, bytes], RunResult]         # (op, calldata) -> RunResult
Oracle = Callable[[str, bytes], cases.Answer]      # (op, calldata) -> output or None (failure)
WORD, PAIR = cases.WORD, cases.PAIR_SIZE
PAIR_WORDS = PAIR // WORD                          # G1 x, y; G2 x_im, x_re, y_im, y_re
SCHEDULE = "update5-A"                             # the eip2537 mode's EVM384 schedule
GAS = 30_000_000


# --- the contract runner -------------------------------------------------------------------------

def _answer_of(result) -> RunResult:
    """A contract's ExecutionResult as (success, output); any end but the precompile's
    failure (INVALID, all gas consumed, no output) is a bug of the contract, not an
    answer."""
    if result.success:
        return (True, result.output)
    if not HALT.ended(result):
        raise AssertionError(f"the contract halted with {result.error!r} "
                             f"(output {result.output.hex()}) instead of failing as the "
                             f"precompile does")
    return (False, b"")


@lru_cache(maxsize=None)
def _bytecode(name: str, target: str) -> bytes:
    from evm384_native.bn254 import build_contract
    return build_contract(name, target=target)


def contract_runner(engine: str = "fast", target: str = "evm384") -> Runner:
    """Runs the op's contract (tests/bn254_cases.CONTRACT) on ``engine`` for ``target``."""
    from evm384_native import execute

    def run(op: str, data: bytes) -> RunResult:
        code = _bytecode(cases.CONTRACT[op], target)
        if target == "evmmax":
            result = execute(code, data, gas=GAS, engine=engine, opcodes="evmmax")
        else:
            result = execute(code, data, gas=GAS, engine=engine, schedule=SCHEDULE)
        return _answer_of(result)
    return run


def oracle_runner(oracle: Oracle) -> Runner:
    """An oracle in the shape of a contract runner (a stand-in for the contracts)."""
    return lambda op, data: cases.as_run_result(oracle(op, data))


def default_oracles() -> Dict[str, Oracle]:
    """py-evm's precompiles, and revm's where pyrevm is installed."""
    oracles = {"py-evm": cases.precompile_pyevm}
    if cases.revm_available():
        oracles["revm"] = cases.precompile_revm
    return oracles


# --- the layout of an input ----------------------------------------------------------------------

def _g1_starts(op: str, data: bytes) -> List[int]:
    """Word indices where a G1 point (x, y) begins."""
    if op == "add":
        return [0, 2]
    if op == "mul":
        return [0]
    return [PAIR_WORDS * pair for pair in range(len(data) // PAIR)]


def _g2_starts(op: str, data: bytes) -> List[int]:
    """Word indices where a G2 point (x_im, x_re, y_im, y_re) begins (pairing only)."""
    return [start + 2 for start in _g1_starts(op, data)] if op == "pairing" else []


def _word(data: bytes, index: int) -> int:
    return int.from_bytes(data[WORD * index:WORD * (index + 1)], "big")


def _with_word(data: bytes, index: int, value: int) -> bytes:
    """``data`` with word ``index`` set (zero padded first if the input is shorter)."""
    data = data.ljust(WORD * (index + 1), b"\0")
    return data[:WORD * index] + (value % 2 ** 256).to_bytes(WORD, "big") + data[WORD * (index + 1):]


def _with_bytes(data: bytes, index: int, raw: bytes) -> bytes:
    data = data.ljust(WORD * index + len(raw), b"\0")
    return data[:WORD * index] + raw + data[WORD * index + len(raw):]


# --- mutations: (rng, op, data) -> data -----------------------------------------------------------

def _any_word(rng: random.Random, op: str, data: bytes) -> int:
    return rng.randrange(max(1, len(data) // WORD))


def _byte_flip(rng, op, data):
    return _bit_flip(rng, data) if data else data


def _word_bit_flip(rng, op, data):
    index = _any_word(rng, op, data)
    return _with_word(data, index, _word(data, index) ^ (1 << rng.randrange(256)))


def _edge_value(rng, op, data):
    index = _any_word(rng, op, data)
    value = _word(data, index)
    return _with_word(data, index, rng.choice([value + cases.P, cases.P, cases.P - 1, 0, 1,
                                               2 ** 256 - 1, cases.R, cases.R - 1]))


def _length(rng, op, data):
    delta = rng.choice([-PAIR, -WORD, -1, 1, 31, WORD, 2 * WORD, PAIR - 1, PAIR])
    if delta < 0:
        return data[:max(0, len(data) + delta)]
    return data + bytes(rng.randrange(256) for _ in range(delta))


def _infinity(rng, op, data):
    """A G1 or G2 point all zero (the point at infinity), or almost: one word 1."""
    starts = [(s, 2) for s in _g1_starts(op, data)] + [(s, 4) for s in _g2_starts(op, data)]
    if not starts:
        return data
    start, size = rng.choice(starts)
    zeros = [0] * size
    if rng.random() < 0.3:
        zeros[rng.randrange(size)] = 1
    return _with_bytes(data, start, cases.encode_words(*zeros))


def _negate(rng, op, data):
    """y -> p - y for a G1 point, or both parts of a G2 point's y (valid; changes answers)."""
    starts = [(s + 1,) for s in _g1_starts(op, data)] + [(s + 2, s + 3) for s in _g2_starts(op, data)]
    if not starts:
        return data
    for index in rng.choice(starts):
        data = _with_word(data, index, (cases.P - _word(data, index)) % cases.P)
    return data


def _off_curve(rng, op, data):
    index = _any_word(rng, op, data)
    return _with_word(data, index, (_word(data, index) + rng.randint(1, 3)) % cases.P)


def _off_subgroup(rng, op, data):
    """A G2 point on the twist but outside the order-R subgroup (pairing only)."""
    starts = _g2_starts(op, data)
    if not starts:
        return data
    return _with_bytes(data, rng.choice(starts), cases.encode_g2(cases.g2_off_subgroup(rng)))


def _swap_fp2_parts(rng, op, data):
    """A G2 point's real and imaginary parts exchanged (the easy encoding mistake)."""
    starts = _g2_starts(op, data)
    if not starts:
        return data
    start = rng.choice(starts)
    x_im, x_re, y_im, y_re = (_word(data, start + i) for i in range(4))
    return _with_bytes(data, start, cases.encode_words(x_re, x_im, y_re, y_im))


def _same_point(rng, op, data):
    """ECADD: the second point made the first (doubling) or its negation (infinity)."""
    if op != "add":
        return data
    x, y = _word(data, 0), _word(data, 1)
    return _with_bytes(data, 2, cases.encode_words(x, y if rng.random() < 0.5 else (cases.P - y) % cases.P))


def _special_scalar(rng, op, data):
    if op != "mul":
        return data
    return _with_word(data, 2, rng.choice(cases.SPECIAL_SCALARS))


def _reorder(rng, op, data):
    """Pairs shuffled, maybe one repeated (the product stays what it was, squared or not)."""
    if op != "pairing" or len(data) < PAIR:
        return data
    pairs = [data[i:i + PAIR] for i in range(0, len(data) - len(data) % PAIR, PAIR)]
    rng.shuffle(pairs)
    if rng.random() < 0.5:
        pairs.append(rng.choice(pairs))
    return b"".join(pairs) + data[len(data) - len(data) % PAIR:]


Mutation = Callable[[random.Random, str, bytes], bytes]
MUTATIONS: Dict[str, Mutation] = {
    "bit flip": _byte_flip, "word bit flip": _word_bit_flip, "edge value": _edge_value,
    "length": _length, "infinity point": _infinity, "negated point": _negate,
    "off curve": _off_curve, "off subgroup": _off_subgroup, "swapped Fp2 parts": _swap_fp2_parts,
    "same point": _same_point, "special scalar": _special_scalar, "reordered pairs": _reorder,
}

MAX_PAIRS = 2            # py-evm's pairing takes about half a second a pair


# --- inputs ------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def valid_input(op: str, seed: int) -> bytes:
    """A random valid input of ``op`` (bn254_cases' generators): ECADD and ECMUL from their
    named cases, a pairing of 0..MAX_PAIRS pairs whose product is one or not."""
    rng = random.Random(f"bn254:{op}:{seed}")
    if op == "add":
        return rng.choice(cases.add_inputs(rng, 2))[1]
    if op == "mul":
        return rng.choice(cases.mul_inputs(rng, 2))[1]
    k = rng.randint(0, MAX_PAIRS)
    return cases.pairing_instance(rng, k, product_is_one=k == 0 or rng.random() < 0.5)


class FuzzCase(NamedTuple):
    index: int
    op: str
    mutations: List[str]
    data: bytes


def fuzz_case(index: int, names: Optional[List[str]] = None) -> FuzzCase:
    """Case ``index``: an op, one of 16 valid inputs of it, and none (one case in five) to
    three mutations chosen from ``names``."""
    rng = random.Random(f"bn254-case:{index}")
    op = rng.choice(cases.OPS)
    data = valid_input(op, rng.randrange(16))
    applied: List[str] = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        name = rng.choice(names or sorted(MUTATIONS))
        data = MUTATIONS[name](rng, op, data)
        applied.append(name)
    if op == "pairing" and len(data) > MAX_PAIRS * PAIR + PAIR:
        data = data[:MAX_PAIRS * PAIR]      # keep py-evm's pairings short (cut on a pair)
        applied.append("cut to MAX_PAIRS")
    return FuzzCase(index, op, applied, data)


# --- the loop ------------------------------------------------------------------------------------------

class Mismatch(NamedTuple):
    case: FuzzCase
    answers: Dict[str, RunResult]        # "contract" and every oracle's


def answers_of(case: FuzzCase, run: Runner, oracles: Dict[str, Oracle]) -> Dict[str, RunResult]:
    """Every oracle's answer and the contract's ("contract"), as (success, output)."""
    answers = {name: cases.as_run_result(oracle(case.op, case.data)) for name, oracle in oracles.items()}
    answers["contract"] = run(case.op, case.data)
    return answers


def _describe(mismatch: Mismatch) -> str:
    case = mismatch.case
    lines = [f"bn254: case {case.index} ({case.op}; {', '.join(case.mutations) or 'unmutated'}) "
             f"MISMATCH"]
    for name, (success, output) in mismatch.answers.items():
        lines.append(f"  {name:>8}: {'output ' + output.hex() if success else 'fails'}")
    lines.append(f"  input {case.data.hex()}")
    return "\n".join(lines)


class Report(NamedTuple):
    cases: int
    answered: int                       # all agreed on an output
    rejected: int                       # all agreed that the input fails
    mismatches: List[Mismatch]


def fuzz_cases(seconds: float, seed: int, run: Runner, oracles: Dict[str, Oracle],
               max_cases: Optional[int] = None) -> Report:
    """Cases seed * 1,000,000, ... until ``seconds`` pass (or ``max_cases`` ran)."""
    deadline, index, count = time.monotonic() + seconds, seed * 1_000_000, 0
    answered, rejected, mismatches = 0, 0, []
    while time.monotonic() < deadline and (max_cases is None or count < max_cases):
        case = fuzz_case(index)
        answers = answers_of(case, run, oracles)
        if len(set(answers.values())) > 1:
            mismatches.append(Mismatch(case, answers))
        elif answers["contract"][0]:
            answered += 1
        else:
            rejected += 1
        index, count = index + 1, count + 1
    return Report(count, answered, rejected, mismatches)


def fuzz(seconds: float, seed: int, log: TextIO, run: Optional[Runner] = None,
         oracles: Optional[Dict[str, Oracle]] = None, max_cases: Optional[int] = None) -> int:
    """The mode ``python -m fuzz bn254``: 0 when everything agreed, else 1 (each mismatch,
    at most five, printed to ``log``). ``run`` defaults to the contracts on the fast engine
    for EVM384; ``oracles`` to py-evm and revm."""
    run = run or contract_runner()
    oracles = oracles or default_oracles()
    report = fuzz_cases(seconds, seed, run, oracles, max_cases)
    for mismatch in report.mismatches[:5]:
        print(_describe(mismatch), file=log)
    print(f"bn254: {report.cases} inputs, {len(report.mismatches)} mismatches; the agreeing "
          f"{report.answered} answered, {report.rejected} rejected (oracles: "
          f"{', '.join(oracles)})", file=log)
    return 1 if report.mismatches else 0
