"""The python engine's decode-time fusions (evm/code.py): a JUMP whose destination decoding
knows continues the block there (calls, subroutines of EVM384 segments, returns), three
known values make an MCOPY's gas static (and known offsets from a stack item, ``DUPn; PUSH c;
ADD``, let it read them there), segments that only PUSHes separate run in one
native call. Programs made of those patterns, with gas limits that halt them anywhere,
must give the same result, gas, steps and opcode counts in every mode (the traced step
loop, which never fuses, included) and agree with py-evm."""
from __future__ import annotations

from typing import List, Tuple, Union

from hypothesis import HealthCheck, given, settings, strategies as st

from evm384_native.evm.api import run
from evm384_native.evm.code import decode
from evm384_native.evm.gas import resolve_schedule

from evm_helpers import asm, assert_matches_pyevm, evm384_word, push, run_everywhere

EVM384_OPS = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")
Piece = Union[bytes, Tuple[str, object]]

offsets = st.integers(0, 12).map(lambda k: 16 * k)
segment = st.lists(st.tuples(st.sampled_from(EVM384_OPS), offsets, offsets, offsets, offsets),
                   min_size=1, max_size=4).map(
    lambda ops: [asm(push(evm384_word(out, x, y, mod), 16), name)
                 for name, out, x, y, mod in ops])
# mostly small; sometimes past 4 GiB (out of gas whatever the gas)
mcopy_operand = st.sampled_from([None] * 6 + [2**32 - 16, 2**32, 2**255]).flatmap(
    lambda huge: st.integers(0, 300) if huge is None else st.just(huge))
static_mcopy = st.tuples(st.sampled_from([None] * 8 + [0, 2**40]).flatmap(
    lambda size: st.integers(0, 300) if size is None else st.just(size)),
                         mcopy_operand, mcopy_operand).map(
    lambda sd: [push(sd[0]), push(sd[1]), push(sd[2]), asm("MCOPY")])



def _found_mcopy(base: int, operands: List[Tuple[str, int]]) -> List[bytes]:
    """PUSH base, then MCOPY's size, source and dest (pushed in that order) each a constant,
    base + c (``DUPn; PUSH c; ADD`` or ``PUSH c; DUPn; ADD``) or a sum of constants, then
    POP base: operands decoding finds from the stack (ADDs that wrap around included).
    (``DUP1; POP`` hide base's value from decoding, as a loop's counter is.)"""
    pieces = [push(base), asm("DUP1"), asm("POP")]
    for above, (kind, value) in enumerate(operands):   # items above base so far
        if kind == "const":
            pieces.append(push(value, 2))
        elif kind == "base + c":
            pieces += [asm(f"DUP{above + 1}"), push(value, 2), asm("ADD")]
        elif kind == "c + base":
            pieces += [push(value, 2), asm(f"DUP{above + 2}"), asm("ADD")]
        else:
            pieces += [push(value, 2), push(7, 1), asm("ADD")]
    return pieces + [asm("MCOPY"), asm("POP")]


found_mcopy = st.builds(
    _found_mcopy,
    st.sampled_from([None] * 6 + [2**256 - 64, 2**32]).flatmap(
        lambda huge: st.integers(0, 300) if huge is None else st.just(huge)),
    st.lists(st.tuples(st.sampled_from(["const", "base + c", "c + base", "sum"]),
                       st.integers(0, 300)), min_size=3, max_size=3))

push_pop = st.integers(0, 2**16 - 1).map(lambda value: [push(value, 2), asm("POP")])


def _main_piece(draw, subs: int, index: int) -> List[Piece]:
    """A piece of the main line; ("mark", name) is a place, ("ref", name) PUSH2 of it."""
    kind = draw(st.sampled_from(["call"] * 6 + ["segment", "mcopy", "found-mcopy"] * 3 +
                                ["push-pop", "jumpi", "mstore", "bad-return"]))
    after = ("after", index)
    if kind in ("call", "bad-return"):   # a bad return address: the JUMP back is invalid
        back = ("ref", after) if kind == "call" else ("ref-past", after)
        return [back, ("ref", ("sub", draw(st.integers(0, subs - 1)))), asm("JUMP"),
                ("mark", after), asm("JUMPDEST")]
    if kind == "segment":
        return draw(segment)
    if kind == "mcopy":
        return draw(static_mcopy)
    if kind == "found-mcopy":
        return draw(found_mcopy)
    if kind == "push-pop":
        return draw(push_pop)
    if kind == "jumpi":                  # maybe over a segment
        return [push(draw(st.integers(0, 1)), 1), ("ref", after), asm("JUMPI")] + \
            draw(segment) + [("mark", after), asm("JUMPDEST")]
    return [push(draw(st.integers(0, 2**64)), 9), push(draw(st.integers(0, 200)), 1),
            asm("MSTORE")]


@st.composite
def programs(draw) -> bytes:
    """A main line of calls to subroutines (each a JUMPDEST, segments and fixed MCOPYs, and
    the JUMP back), segments, fixed MCOPYs and a few other instructions; it returns the first
    256 bytes of memory. Like the pairing contracts, with halts where the gas runs out or a
    return address is bad."""
    subs = draw(st.integers(1, 3))
    main = sum((_main_piece(draw, subs, i) for i in range(draw(st.integers(1, 10)))), [])
    main += [push(256, 2), push(0, 1), asm("RETURN")]
    for sub in range(subs):
        main += [("mark", ("sub", sub)), asm("JUMPDEST")]
        for _ in range(draw(st.integers(0, 3))):
            main += draw(st.one_of(segment, static_mcopy, found_mcopy, push_pop))
        main += [asm("JUMP")]
    places, at = {}, 0
    for piece in main:
        if piece[0] == "mark":
            places[piece[1]] = at
        else:
            at += 3 if piece[0] in ("ref", "ref-past") else len(piece)
    return b"".join(b"" if piece[0] == "mark" else
                    push(places[piece[1]] + (piece[0] == "ref-past"), 2)
                    if piece[0] in ("ref", "ref-past") else piece for piece in main)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(code=programs(), gas=st.one_of(st.integers(0, 3_000), st.integers(0, 60_000)))
def test_fused_blocks_agree_everywhere_and_with_pyevm(code, gas):
    assert_matches_pyevm(code, gas=gas)


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(code=programs())
def test_every_gas_limit_halts_at_the_same_place(code):
    """Out of gas at each point of the run: up to the gas a full run uses."""
    used = run(code, gas=200_000).gas_used
    for gas in range(0, min(used, 400) + 2):
        run_everywhere(code, gas=gas)


def test_a_call_its_subroutine_and_the_return_are_one_block():
    ret, sub = 10, 14
    code = asm(push(ret, 1), push(sub, 1), "JUMP", push(0, 1), push(0, 1), "REVERT",
               "JUMPDEST", "STOP", "INVALID", "INVALID", "JUMPDEST",
               push(evm384_word(0, 0, 0, 0), 16), "ADDMOD384", "JUMP")
    assert code[ret] == code[sub] == 0x5B
    result = run_everywhere(code)
    assert result.success and result.opcode_counts["JUMP"] == 2
    decoded = decode(code, resolve_schedule("evmone-v7"))
    assert sorted(decoded.dispatch_at) == [0]
    assert [ins.pc for ins in decoded.block_instructions(0)] == [0, 2, 4, 14, 15, 32, 33, 10, 11]
    body = decoded.dispatch_at[0][5]
    assert [handler.__name__ for handler, _, _ in body] == ["op_segment", "op_stop"]


def test_segments_with_pushes_between_run_as_one_and_keep_the_pushes():
    word = push(evm384_word(48, 0, 0, 96), 16)
    code = asm(word, "ADDMOD384", push(7, 1), word, "MULMODMONT384", push(5, 1), "ADD",
               push(0, 1), "MSTORE", push(32, 1), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code)
    assert int.from_bytes(result.output, "big") == 12
    body = decode(code, resolve_schedule("evmone-v7")).dispatch_at[0][5]
    assert [handler.__name__ for handler, _, _ in body][:3] == ["op_segment", "op_push", "op_push"]
    assert body[0][1].count == 2


def test_an_mcopy_reads_offsets_from_the_stack_in_one_entry():
    """``PUSH size; PUSH source; DUP3; PUSH 32; ADD; MCOPY``: one body entry, which reads the
    item below (dest = it + 32) when it runs."""
    code = asm(push(64, 1), push(0, 1), "CALLDATALOAD", "POP", push(5, 1), push(0, 1),
               "DUP3", push(32, 1), "ADD", "MCOPY", push(128, 1), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code)
    assert result.success
    body = decode(code, resolve_schedule("evmone-v7")).dispatch_at[0][5]
    assert [handler.__name__ for handler, _, _ in body][-1] == "op_mcopy_found"
    assert body[-1][1] == ((1, 32), (0, 0), (0, 5))
