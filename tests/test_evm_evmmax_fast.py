"""EVMMAX (EIP-6690) on the fast engine beside the Python engine (native and reference
backends): random programs from the fuzzer's generator (every assert's edges), the
generator's reach, the per-run context cache, tracing, and threads running many contexts
at once. tests/test_evm_evmmax.py runs each of its programs on every engine too."""
from __future__ import annotations

import random
import threading
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from evm384_native.evm import execute
from fuzz.evmmax import evmmax_program
from fuzz.programs import Limits
from fuzz.variants import describe_differences, run_variants
from test_evm_evmmax import (LOADX, MULMODX, SUBMODX, STOREX, VALUES_AT, context_prefix, encode,
                             mstore_bytes, push, returning, run_both, setmodx, transfer, vector)

LIMITS = Limits(max_gas=300_000)
GAS = 10_000_000


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**64))
def test_random_programs_agree_on_every_variant(seed):
    case = evmmax_program(random.Random(seed), LIMITS)
    outcomes = run_variants(case.code, case.calldata, case.gas, "evmone-v7", opcodes="evmmax")
    assert describe_differences(outcomes, case.gas) == []


def test_the_generator_reaches_every_assert():
    """What the random programs end with, over fixed seeds: success, out of gas and the
    halts of every instruction's asserts (so the differential test above sees them)."""
    endings = Counter()
    for seed in range(400):
        case = evmmax_program(random.Random(f"reach:{seed}"), LIMITS)
        error = execute(case.code, gas=case.gas, opcodes="evmmax", engine="fast").error
        endings[error] += 1
    text = "\n".join(str(error) for error in endings)
    for wanted in ["None", "out of gas", "no active field context", "count must not be 0",
                   "out_stride must not be 0", "SETMODX: id", "modulus_size", "alloc_count",
                   "the modulus must be at least 3", "odd or a power of two", "exceed",
                   "lies outside", "not below the modulus", "LOADX: registers",
                   "STOREX: registers", "out: out_idx", "x: x_idx", "y: y_idx"]:
        assert wanted in text, wanted


def test_contexts_sharing_a_modulus_keep_their_own_registers():
    """The fast engine sets each distinct modulus up once per run: contexts of one modulus
    share its precomputation, never their registers."""
    modulus = 2**381 - 3
    values = [5, 7, 11]
    code = context_prefix(modulus, 4) + mstore_bytes(VALUES_AT, encode(values, 48)) \
        + transfer(STOREX, 0, VALUES_AT, 3)
    for context_id in (1, 2):      # same modulus, with leading zero bytes the second time
        code += mstore_bytes(64, modulus.to_bytes(48 + context_id, "big")) \
            + setmodx(context_id, 64, 48 + context_id, 4) \
            + vector(MULMODX, 0, 1, 0, 1, 0, 1, 1)   # 0 * 0: register 0 stays 0
    code += setmodx(0, 0, 0, 0) + vector(SUBMODX, 1, 1, 1, 1, 2, 1, 1) \
        + transfer(LOADX, VALUES_AT, 0, 3) + setmodx(2, 0, 0, 0) \
        + transfer(LOADX, VALUES_AT + 144, 0, 3) + returning(VALUES_AT, 288)
    result = run_both(code)
    assert result.success, result.error
    assert result.output == encode([5, (7 - 11) % modulus, 11, 0, 0, 0], 48)


def test_a_traced_fast_run_is_the_python_step_loop():
    code = context_prefix(2**255 - 19, 4) + vector(MULMODX, 0, 1, 1, 1, 2, 1, 1) \
        + transfer(LOADX, 0, 0, 4) + returning(0, 128)
    names = []
    traced = execute(code, opcodes="evmmax", engine="fast", tracer=lambda s: names.append(s.name))
    assert traced == execute(code, opcodes="evmmax", engine="fast") and traced.success
    assert names.count("MULMODX") == 1 and names[-1] == "RETURN"


def test_threads_with_many_contexts():
    """Runs of many contexts (ids spread over 0..256, moduli of every limb count) in 12
    threads at once (the C loop releases the GIL; every run owns its contexts and
    registers), equal to the same runs alone, which the Python engine agrees with."""
    programs = []
    for seed in range(6):
        rng = random.Random(seed)
        code, expected, at = push(0) + push(8192 - 32) + bytes([0x52]), [], 4096
        used = 0
        for context_id in range(0, 257, rng.randint(3, 9)):
            limbs = rng.randint(1, 12)
            if used + 4 * 8 * limbs > 24576:
                break
            used += 4 * 8 * limbs
            modulus = rng.randrange(2**(64 * limbs - 1), 2**(64 * limbs)) | 1
            x, y = rng.randrange(modulus), rng.randrange(modulus)
            size = 8 * limbs
            code += (mstore_bytes(0, modulus.to_bytes(size, "big")) + setmodx(context_id, 0, size, 4)
                     + mstore_bytes(VALUES_AT, encode([x, y], size))
                     + transfer(STOREX, 0, VALUES_AT, 2) + vector(MULMODX, 2, 1, 0, 1, 1, 1, 1)
                     + transfer(LOADX, at, 2, 1))
            expected.append(encode([x * y % modulus], size))
            at += size
        code += returning(4096, at - 4096)
        programs.append((code, b"".join(expected)))
    alone = [run_both(code, GAS) for code, _ in programs]
    for result, (_, expected) in zip(alone, programs):
        assert result.success and result.output == expected, result.error
    results = {}

    def worker(index: int) -> None:
        code = programs[index % len(programs)][0]
        results[index] = [execute(code, gas=GAS, opcodes="evmmax", engine="fast") for _ in range(20)]

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index, runs in results.items():
        assert all(run == alone[index % len(programs)] for run in runs)
    assert len(results) == 12


def test_moduli_set_up_by_earlier_runs():
    """SETMODX's precomputation comes from a process-wide table for moduli that earlier
    runs set up (up to 64, then per run): runs of 80 distinct moduli (every limb count,
    powers of two, leading zero bytes), each twice, so that the second pass finds the
    first pass's entries or overflows the table, equal to Python integers every time."""
    rng = random.Random(6690)
    moduli = [2**(64 * limbs) - rng.randrange(1, 2**60, 2) for limbs in range(1, 13)]
    moduli += [2**bits for bits in (2, 64, 255, 381, 767)]
    moduli += [rng.randrange(2**(8 * size - 8), 2**(8 * size)) | 1
               for size in rng.choices(range(1, 97), k=80 - len(moduli))]
    for round_ in range(2):
        for index, modulus in enumerate(moduli):
            size = -(-modulus.bit_length() // 64) * 8
            x, y = rng.randrange(modulus), rng.randrange(modulus)
            padded = modulus.to_bytes(min(96, size + round_ + index % 3), "big")  # zeros first
            code = (mstore_bytes(0, padded) + setmodx(index % 257, 0, len(padded), 5)
                    + mstore_bytes(VALUES_AT, encode([x, y], size))
                    + transfer(STOREX, 0, VALUES_AT, 2) + vector(MULMODX, 2, 1, 0, 1, 1, 1, 1)
                    + vector(SUBMODX, 3, 1, 0, 1, 1, 1, 1) + transfer(LOADX, VALUES_AT, 2, 2)
                    + returning(VALUES_AT, 2 * size))
            result = (run_both(code) if index % 10 == 0
                      else execute(code, gas=GAS, opcodes="evmmax", engine="fast"))
            assert result.success, (modulus, result.error)
            assert result.output == encode([x * y % modulus, (x - y) % modulus], size), modulus
