"""Decoding: PUSH data, jump destinations and segments found up front on any code, blocks
decoded when reached, and the cache bounded by memory."""
import os
import sys

import pytest

from evm384_native import execute
from evm384_native.evm import code as code_module
from evm384_native.evm.cache import SizedCache
from evm384_native.evm.code import MAX_SEGMENT_OPS, decode
from evm384_native.evm.gas import SCHEDULES

SCHEDULE = SCHEDULES["evmone-v7"]
MIB = 1 << 20


def test_jumpdests_skip_push_data_and_truncated_pushes():
    # PUSH2 5b5b, JUMPDEST, PUSH32 cut short by the end (its data holds 5b)
    code = bytes.fromhex("615b5b5b7f5b5b")
    decoded = decode(code, SCHEDULE)
    assert decoded.jumpdests == {3}
    assert decoded.jumpdest_flags == bytes([0, 0, 0, 1, 0, 0, 0])
    assert decoded.instruction_at[1] is None and decoded.instruction_at[4].name == "PUSH32"
    assert decoded.instruction_at[4].arg == 0x5B5B << 240


def test_segments_are_split_and_read_like_the_instructions():
    pairs = MAX_SEGMENT_OPS + 3
    word = (0x30 << 96) | (0x60 << 64) | (0x90 << 32) | 0xC0
    code = (b"\x6f" + word.to_bytes(16, "big") + b"\xc2") * pairs + b"\x5f\xc0"
    table = decode(code, SCHEDULE).segments
    assert table.count.tolist() == [MAX_SEGMENT_OPS, 4]
    assert table.records[0].tolist() == [0x6F, 0xC2, 0x30, 0x60, 0x90, 0xC0]
    assert table.records[-1].tolist() == [0x5F, 0xC0, 0, 0, 0, 0]
    assert table.end[0] == 0xC0 + 56 and table.gas[1] == 3 * (3 + 24) + 2 + 8
    python = execute(code, gas=10**7)
    assert python == execute(code, gas=10**7, engine="fast")
    assert python.opcode_counts == {"PUSH16": pairs, "MULMODMONT384": pairs, "PUSH0": 1,
                                    "ADDMOD384": 1, "STOP": 1}


@pytest.mark.parametrize("kind", ["jumpdest", "push32", "random"])
def test_a_mebibyte_of_code_runs_on_both_engines(kind):
    code = {"jumpdest": b"\x5b" * MIB, "push32": b"\x7f" * MIB,
            "random": os.urandom(MIB)}[kind]
    python = execute(code, gas=100_000)
    assert python == execute(code, gas=100_000, engine="fast")


def test_blocks_decode_only_where_execution_goes():
    code = bytes.fromhex("6005565b005b00")     # PUSH1 5, JUMP over a JUMPDEST; STOP
    decoded = decode(code, SCHEDULE)
    assert execute(code).success
    # one block: it goes on at the JUMP's destination, which decoding knows
    assert sorted(decoded.dispatch_at) == [0]
    assert [ins.pc for ins in decoded.block_instructions(0)] == [0, 2, 5, 6]


# PUSH1 1; JUMPDEST; JUMPDEST; PUSH1 9; JUMPI; STOP; STOP;
# JUMPDEST; PUSH1 0; PUSH1 1; PUSH1 2; ADD; JUMP: the first block falls through two
# JUMPDESTs, then a jump decoding cannot know (to 1 + 2) lands on the second (pc 3)
# the jump back to 3 is by a product, which decoding does not follow (it folds ADDs)
INTO_A_BLOCK = bytes.fromhex("60015b5b6009570000" "5b60006003600102 5600".replace(" ", ""))


def test_blocks_run_through_jumpdests_and_jumps_into_them_start_blocks():
    decoded = decode(INTO_A_BLOCK, SCHEDULE)
    result = execute(INTO_A_BLOCK)
    assert sorted(decoded.dispatch_at) == [0, 3, 7, 9]
    assert result.opcode_counts == {"PUSH1": 6, "JUMPDEST": 4, "JUMPI": 2, "MUL": 1, "JUMP": 1,
                                    "STOP": 1}
    assert result.gas_used == 6 * 3 + 4 * 1 + 2 * 10 + 5 + 8
    assert result == execute(INTO_A_BLOCK, engine="fast")
    assert result == execute(INTO_A_BLOCK, tracer=lambda step: None)


@pytest.mark.parametrize("body", [b"\x5b", bytes.fromhex("600150")])   # JUMPDEST; PUSH1 1, POP
def test_passes_through_a_long_straight_loop_reuse_their_blocks(body):
    """A loop over 64 KiB of one piece: blocks of 1,024 instructions, and the jump back is
    known; were the block it ends in cut wherever the cap falls past that jump, each pass
    would start a new set of blocks (decoding in proportion to the gas, ~3 us a JUMPDEST)."""
    sled = 64 * 1024 // len(body)
    code = b"\x5b" + body * sled + bytes.fromhex("6000" "56")     # PUSH1 0; JUMP
    instructions = sled * (2 if len(body) > 1 else 1)
    gas = 6 * (3 * instructions + 20)          # at least six passes: at most 3 gas each
    result = execute(code, gas=gas)
    assert result.error == "out of gas" and result.opcode_counts["JUMP"] >= 6
    assert result == execute(code, gas=gas, engine="fast")
    blocks = len(decode(code, SCHEDULE).dispatch_at)
    assert blocks <= 2 * (instructions // code_module.MAX_BLOCK_INSTRUCTIONS + 1), blocks


@pytest.mark.parametrize("kept_bytes", [0, 13_800, code_module.KEPT_BYTES])
def test_what_is_kept_of_decoded_blocks_is_bounded_and_changes_nothing(monkeypatch, kept_bytes):
    """Past the bound, blocks and instructions decode again on each visit: every result
    (gas, steps, opcode counts, halts partway through a block) is the same."""
    monkeypatch.setattr(code_module, "KEPT_BYTES", kept_bytes)
    # a loop of 40 iterations over JUMPDEST-separated pieces, then halts out of gas at
    # every gas limit near the end; unique code bytes per case (the decode cache)
    body = b"".join(bytes.fromhex("5b6001600201") + bytes([0x50]) for _ in range(30))
    loop = bytes.fromhex("6028") + b"\x5b" + body + bytes.fromhex("600190038060025700")
    code = loop + b"\x00" + kept_bytes.to_bytes(4, "big")
    full = execute(code, gas=10**6)
    assert full.success and full.opcode_counts["JUMPDEST"] == 40 * 31
    assert full == execute(code, gas=10**6, engine="fast")
    for gas in range(full.gas_used - 40, full.gas_used + 1, 3):
        assert execute(code, gas=gas) == execute(code, gas=gas, engine="fast"), gas
    decoded = decode(code, SCHEDULE)
    kept = {0: 0, 13_800: 1}.get(kept_bytes, 3)   # of the 3 blocks (pcs 0, 2 and the STOP)
    assert len(decoded.dispatch_at) == kept
    assert decoded.memory_size() <= 4 * len(code) + decoded.segment_at.nbytes + kept_bytes


def test_the_cache_is_bounded_by_memory():
    cache = SizedCache(100, len)
    for key in range(10):
        assert cache.get(bytes([key]), (), lambda code: "x" * 30) == "x" * 30
    assert cache.total() == 90
    made = []
    for key in (7, 8, 9):                               # the three most recent stay
        cache.get(bytes([key]), (), lambda code: made.append(key) or "z")
    assert made == []
    assert cache.get(b"\x06", (), lambda code: "w" * 30) == "w" * 30   # evicts 7, the least recent
    cache.get(b"\x07", (), lambda code: made.append(7) or "v" * 30)
    assert made == [7]
    assert cache.get(b"big", (), lambda code: "y" * 101) == "y" * 101   # returned, not kept
    assert cache.total() == 90
    for _ in range(3):
        decode(os.urandom(MIB), SCHEDULE)
    assert code_module._CACHE.total() <= code_module.DECODE_CACHE_BYTES


def test_the_cache_finds_a_code_object_by_identity_for_its_own_context_only():
    """The identity map (cache.py): the same object, an equal copy and another context
    each get the right value, and an evicted entry is made again, never found by its id."""
    cache = SizedCache(100, len)
    code = bytes(range(256)) * 2                        # over SMALL_CODE: a content key
    copy = bytes(bytearray(code))
    assert copy is not code
    made = []

    def make(tag):
        return lambda c, *context: made.append(tag) or f"{tag}{context}".ljust(40)
    first = cache.get(code, ("a",), make("code"))
    assert cache.get(code, ("a",), make("again")) is first
    assert cache.get(copy, ("a",), make("copy")) is first         # equal bytes: the same entry
    other = cache.get(code, ("b",), make("b"))                    # same object, other context
    assert other != first and cache.get(code, ("a",), make("again")) is first
    assert cache.get(code, ("b",), make("again")) is other
    assert made == ["code", "b"]
    cache.get(b"x" * 300, (), make("evicts"))                     # 3 x 40 > 100: "a" goes
    assert cache.get(code, ("a",), make("remade")) is not first and made[-1] == "remade"
    assert cache.total() <= 100
    cache.get(b"y" * 300, (), make("y"))
    cache.get(b"z" * 300, (), make("z"))                         # the identity's own entry goes
    assert cache._by_identity.get(id(code)) is None
    assert cache.get(code, ("a",), make("made")) is not first and made[-1] == "made"


def test_threads_decoding_the_same_code_agree():
    """Blocks decode lazily under a lock: threads running one new program at once get one
    block per start pc and the single-threaded answer (the python engine; the fast engine
    reads no blocks)."""
    from concurrent.futures import ThreadPoolExecutor
    code = b"\x5b\x60\x01\x50" * 3000 + b"\x5b\x58\x00"   # (JUMPDEST PUSH1 1 POP)*, PC
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)                         # threads switch inside decoding
    try:
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda _: execute(code), range(8)))
    finally:
        sys.setswitchinterval(interval)
    # one block kept per start: the chain of falls-through from pc 0
    dispatch_at = decode(code, SCHEDULE).dispatch_at
    chain = [0]
    while dispatch_at[chain[-1]][4] < len(code):
        chain.append(dispatch_at[chain[-1]][4])
    assert sorted(dispatch_at) == chain + [len(code)] * (len(code) in dispatch_at)
    assert all(result == execute(code) for result in results)
    assert results[0].opcode_counts["JUMPDEST"] == 3001
