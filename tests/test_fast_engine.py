"""The fast engine (C loop) against the Python engine: identical ExecutionResults."""
import threading

import pytest
from hypothesis import given, strategies as st

from evm384_native import execute
from evm384_native.evm.api import run
from evm384_native.evm.opcodes import OPCODES

from evm_helpers import asm, evm384_word, push
from evm_programs import fp2_calldata, fp2_mul_loop

INTERESTING_WORDS = [0, 1, 2, 7, 31, 32, 33, 255, 256, 2**64 - 1, 2**64, 2**128,
                     2**255, 2**255 - 1, 2**256 - 1, 2**256 - 2, 0xFFFFFFFF]


def same_everywhere(code: bytes, calldata: bytes = b"", gas: int = 100_000, schedule="evmone-v7"):
    python = run(code, calldata, gas=gas, schedule=schedule, engine="python")
    fast = run(code, calldata, gas=gas, schedule=schedule, engine="fast")
    assert fast == python, (code.hex(), fast, python)
    assert fast.opcode_counts == python.opcode_counts
    return fast


@st.composite
def programs(draw):
    """Instruction sequences over every opcode, with PUSH data that hits edge cases and
    EVM384 offsets inside a small memory, preceded by a calldata copy."""
    def operand() -> bytes:
        value = draw(st.one_of(st.sampled_from(INTERESTING_WORDS), st.integers(0, 2**256 - 1),
                               st.integers(0, 300), st.integers(0, 300), st.integers(0, 300)))
        return push(value, max(1, (value.bit_length() + 7) // 8))

    parts = [asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY")]
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["push", "op", "op", "op", "evm384", "jump"]))
        if kind == "push":
            parts.append(operand())
        elif kind == "op":
            opcode = draw(st.sampled_from(sorted(OPCODES)))
            # Mostly with the operands it needs, so programs run on rather than underflow.
            if draw(st.integers(0, 4)):
                parts.extend(operand() for _ in range(OPCODES[opcode].inputs))
            parts.append(bytes([opcode]))
        elif kind == "evm384":
            offsets = [draw(st.integers(0, 400)) for _ in range(4)]
            parts.append(asm(push(evm384_word(*offsets), 16),
                             draw(st.sampled_from(["ADDMOD384", "SUBMOD384", "MULMODMONT384"]))))
        else:
            parts.append(asm("JUMPDEST") if draw(st.booleans()) else
                         asm(push(draw(st.integers(0, 200)), 1), draw(st.sampled_from(["JUMP", "JUMPI"]))))
    parts.append(asm(push(draw(st.integers(0, 64)), 1), push(draw(st.integers(0, 512)), 2), "RETURN"))
    return b"".join(parts)


@given(programs(), st.binary(max_size=300), st.integers(0, 1_000_000))
def test_random_programs(code, calldata, gas):
    same_everywhere(code, calldata, gas)


@given(st.binary(max_size=200), st.binary(max_size=64), st.integers(0, 30_000))
def test_random_bytes(code, calldata, gas):
    same_everywhere(code, calldata, gas)


@pytest.mark.parametrize("schedule", ["evmone-v7", "update5-A", "update5-B"])
def test_fp2_loop(schedule):
    result = same_everywhere(fp2_mul_loop(50), fp2_calldata(3, 4, 5, 6), gas=1_000_000,
                             schedule=schedule)
    assert result.success and result.opcode_counts["MULMODMONT384"] == 150


def test_segment_counts_with_mixed_push_widths():
    """One fused segment whose PUSHes differ in width (the C loop adds each segment's
    per-opcode tally, made at analysis): counts as written, on both engines."""
    pairs = [(16, evm384_word(96, 0, 48, 200), "ADDMOD384"),
             (8, evm384_word(0, 0, 48, 200), "MULMODMONT384"),
             (32, evm384_word(144, 96, 0, 200), "SUBMOD384"),
             (16, evm384_word(0, 144, 48, 200), "MULMODMONT384"),
             (8, evm384_word(0, 0, 0, 200), "ADDMOD384")]
    code = asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY",
               *[asm(push(word, width), op) for width, word, op in pairs],
               push(192, 1), push(0, 1), "RETURN")
    calldata = bytes(range(200)) + (2**381 + 5).to_bytes(48, "little") + bytes(8)
    result = same_everywhere(code, calldata, gas=1_000_000)
    assert result.success
    for name, expected in [("PUSH8", 2), ("PUSH16", 2), ("PUSH32", 1), ("ADDMOD384", 2),
                           ("SUBMOD384", 1), ("MULMODMONT384", 2)]:
        assert result.opcode_counts[name] == expected, name


@pytest.mark.parametrize("code", [
    asm(push(2**255, 32), push(3, 1), "SAR"),                      # arithmetic shift of negative
    asm(push(0xFF, 1), push(30, 1), "SIGNEXTEND"),
    asm(push(0x80, 1), push(0, 1), "SIGNEXTEND"),
    asm(push(2**200 + 5, 32), push(2**255 + 9, 32), "MUL"),
    asm(push(1, 1), push(2**256 - 1, 32), "SLT"),
    asm(push(5, 1), push(7, 1), "EXP"),
    asm(push(32, 1), push(0, 1), "KECCAK256"),
    asm(push(0, 1), push(2**200, 32), "KECCAK256"),                # empty input, huge offset
    asm(push(100, 1), push(7, 1), "KECCAK256"),
    asm(push(0, 1), push(7, 1), "DIV"), asm(push(0, 1), push(7, 1), "MOD"),   # by zero
    asm(push(3, 1), push(2**64 - 1, 8), "DIV"),                    # 64-bit
    asm(push(3, 1), push(2**64, 9), "MOD"),                        # wider
    asm(push(2**100, 13), push(2**200 + 1, 26), "DIV"),
    asm(push(0, 1), push(2**40, 32), "MLOAD"),                     # out of gas, huge memory
    asm(push(1, 1), push(2**32 - 32, 32), "MSTORE"),               # just below the 4 GiB cap
    asm(push(1, 1), push(2**32 - 31, 32), "MSTORE"),               # past it: out of gas
    asm(push(1, 1), push(2**64, 32), push(0, 1), "CALLDATACOPY"),
    asm(push(0, 1), push(2**200, 32), "RETURN"),                   # empty range: no expansion
    asm(push(64, 1), push(0, 1), push(10, 1), "MCOPY", "MSIZE"),
    asm(push(evm384_word(0xFFFFFFFF, 0, 0, 0), 16), "ADDMOD384"),  # out of gas expanding
    asm("GAS", "PC", "CODESIZE", "RETURNDATASIZE", "CALLDATASIZE"),
    asm(push(1, 1), push(0, 1), "RETURNDATACOPY"),
    asm(push(0, 1), push(1, 1), push(2**40, 32), "RETURNDATACOPY"),   # empty at a huge offset
    asm(push(0, 1), push(0, 1), push(2**40, 32), "RETURNDATACOPY"),   # empty, offset 0: no halt
    bytes([0x60]),                                                 # PUSH1 cut off by the end
])
def test_edge_cases(code):
    same_everywhere(code + RETURN_TOP_OR_NOTHING, b"\x01\x02", gas=50_000)


RETURN_TOP_OR_NOTHING = asm(push(0, 1), "MSTORE", push(32, 1), push(0, 1), "RETURN")


@pytest.mark.parametrize("code, gas", [
    # an SDIV loop with 2 MiB of memory: 17-31 s on the fast engine when it copied memory
    # to Python for each SDIV (issue 15)
    (bytes.fromhex("6001621fffe0525b5f5f0550600756"), 9_650_000),
    # an SDIV loop over 1,000 stack items: it copied the whole stack per SDIV
    (push(0, 0) * 1000 + asm("JUMPDEST", push(0, 0), push(0, 0), "SDIV", "POP",
                             push(1000, 2), "JUMP"), 1_000_000),
])
def test_formerly_host_instructions_run_in_c(code, gas):
    result = same_everywhere(code, gas=gas)
    assert result.error == "out of gas" and result.opcode_counts["SDIV"] > 40_000


def test_fast_needs_native_backend():
    with pytest.raises(ValueError, match="engine 'fast' runs the native kernels"):
        execute(b"\x00", engine="fast", backend="reference")


def test_threads_run_checks_side_by_side():
    code, calldata = fp2_mul_loop(200), fp2_calldata(3, 4, 5, 6)
    expected = execute(code, calldata, engine="python")
    results = []
    threads = [threading.Thread(target=lambda: results.append(execute(code, calldata, engine="fast")))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


@st.composite
def evm384_runs(draw):
    """Runs of PUSH + EVM384 pairs (the fused segments), some needing memory growth, with
    stack items left below them and loops, so gas can run out anywhere inside a run."""
    parts = [asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY")]
    parts += [push(7, 1)] * draw(st.integers(0, 3))
    for _ in range(draw(st.integers(1, 6))):
        for _ in range(draw(st.integers(1, 12))):
            offsets = [draw(st.one_of(st.integers(0, 300), st.integers(0, 5000))) for _ in range(4)]
            width = draw(st.sampled_from([16, 16, 16, 4, 32]))   # narrow: out, x, y read as 0
            word = evm384_word(*offsets) & ((1 << (8 * width)) - 1)
            parts.append(asm(push(word, width),
                             draw(st.sampled_from(["ADDMOD384", "SUBMOD384", "MULMODMONT384"]))))
        parts.append(asm("JUMPDEST") if draw(st.booleans()) else asm(push(1, 1), "POP"))
    parts.append(asm(push(96, 1), push(0, 1), "RETURN"))
    return b"".join(parts)


@given(evm384_runs(), st.binary(min_size=0, max_size=400), st.integers(0, 40_000))
def test_fused_runs_halt_where_single_steps_do(code, calldata, gas):
    same_everywhere(code, calldata, gas)


@pytest.mark.parametrize("name", ["pairing", "miller_loop", "final_exponentiation",
                                  "pairing_product_is_one"])
def test_pairing_contracts_identical_on_both_engines(name):
    import random

    from evm384_native.bls12_381 import build_contract, encode_calldata
    from evm384_native.bls12_381.oracle import encode_pairs, random_product_case

    pairs = encode_pairs(random_product_case(random.Random(name), 2, True))
    args = {"pairing": pairs[0], "miller_loop": (pairs,), "pairing_product_is_one": (pairs,),
            "final_exponentiation": (execute(build_contract("miller_loop"),
                                             encode_calldata("miller_loop", pairs)).output,)}[name]
    code, calldata = build_contract(name), encode_calldata(name, *args)
    for schedule in ("evmone-v7", "update5-A"):
        fast = same_everywhere(code, calldata, gas=30_000_000, schedule=schedule)
        assert fast.success
    # and halting partway: out of gas in the middle of the final exponentiation
    same_everywhere(code, calldata, gas=fast.gas_used // 2)


def custom_schedule(cost: int):
    return {"ADDMOD384": cost, "SUBMOD384": cost + 1, "MULMODMONT384": cost + 2}


def test_a_run_owns_its_opcode_table_while_other_threads_churn_the_caches():
    """Issue 15's reproducer: a long run with a custom schedule while another thread fills
    the opcode-table cache (16 entries) with 40 other schedules. The run's table used to
    be freed mid-run (heap-use-after-free under ASan, which CI runs this file with)."""
    loop, schedule = bytes.fromhex("5b5f56"), custom_schedule(1000)   # JUMPDEST PUSH0 JUMP
    expected = run(loop, gas=30_000_000, engine="python", schedule=schedule)
    results = []

    def long_runs():
        for _ in range(3):
            results.append(run(loop, gas=30_000_000, engine="fast", schedule=schedule))

    def churn():
        for round_ in range(3):
            for cost in range(40):
                run(bytes([0x00]), engine="fast", schedule=custom_schedule(2000 + 40 * round_ + cost))

    threads = [threading.Thread(target=long_runs), threading.Thread(target=churn)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 3 and expected.error == "out of gas"
