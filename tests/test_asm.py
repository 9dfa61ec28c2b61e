"""The assembler, disassembler, memory layout and source map."""
import pytest
from hypothesis import given, strategies as st

from evm384_native.asm import (Assembler, Fp, Fp2, Fp6, Fp12, G2Jacobian, Memory, disassemble,
                               pack_offsets, unpack_offsets)

from evm384_native import execute as run

SPEC_X = bytes.fromhex("3c119b3934156e9d9a495378725bb6c7fdcd12784743919063f5a383d2d2af117e025fdb0fb03fa723a62a4d6d968d2b")
SPEC_Y = bytes.fromhex("f1562b8a749c87046d34a6d1101226508bb99a91982faeac365505dc7d9366404d9808a02531e3e80c82cdbab995821e")
SPEC_MOD = bytes.fromhex("ec1e91ae1c738c60602becdaa2c68049efc48e8efa17054cdfb487bd3ccf137fe7e517dbee90eef07123d231ea794fa5")
SPEC_ADD = bytes.fromhex("2d68c6c3a8b1f5a1077ef949836ddc178987ad09e0723f3d9a4aa95f50661652cb9a677b35e122903028f807272c104a")


def test_pack_offsets_matches_spec_layout():
    assert pack_offsets(0, 0, 48, 96) == 0x00000000000000000000003000000060
    assert unpack_offsets((1 << 200) | pack_offsets(1, 2, 3, 4)) == (1, 2, 3, 4)
    with pytest.raises(ValueError):
        pack_offsets(1 << 32, 0, 0, 0)


def test_spec_vector_through_layout_and_runner():
    asm = Assembler()
    inputs = asm.memory.region("inputs")
    x, y, mod = inputs.alloc(Fp, "x"), inputs.alloc(Fp, "y"), inputs.alloc(Fp, "mod")
    asm.ops("CALLDATASIZE"); asm.push(0); asm.push(x); asm.op("CALLDATACOPY")
    asm.evm384("ADDMOD384", x, x, y, mod)
    asm.push(48); asm.push(x); asm.op("RETURN")
    program = asm.assemble()
    assert run(program.code, SPEC_X + SPEC_Y + SPEC_MOD).output == SPEC_ADD


def test_push_width_is_picked_and_labels_relax():
    asm = Assembler()
    for value, width in [(0, 1), (255, 1), (256, 2), (1 << 255, 32)]:
        asm.push(value)
    far = asm.new_label("far")
    asm.jump(far)
    for _ in range(300):                    # push the target beyond one byte
        asm.op("JUMPDEST")
    asm.place(far)
    asm.op("STOP")
    program = asm.assemble()
    names = [ins.name for ins in disassemble(program.code)]
    assert names[:6] == ["PUSH1", "PUSH1", "PUSH2", "PUSH32", "PUSH2", "JUMP"]
    assert program.labels["far"] == len(program.code) - 2
    assert run(program.code).success


def test_loop_and_subroutine_run():
    """sum 1..10 in a loop, doubled by a subroutine; result stored and returned."""
    asm = Assembler()
    asm.subroutine("unused", lambda a: a.op("INVALID"))
    # [x ret] -> [2x ret]: the body reaches under the return address and leaves it on top
    double = asm.subroutine("double", lambda a: a.ops("SWAP1", "DUP1", "ADD", "SWAP1"))
    asm.push(0); asm.push(10)                      # acc, i
    top = asm.label("top")
    asm.ops("DUP1", "SWAP2", "ADD", "SWAP1")       # acc += i
    asm.push(1); asm.ops("SWAP1", "SUB")           # i -= 1
    asm.op("DUP1"); asm.jumpi(top)
    asm.op("POP")
    asm.call(double)
    asm.push(0); asm.op("MSTORE"); asm.push(32); asm.push(0); asm.op("RETURN")
    program = asm.assemble()
    assert int.from_bytes(run(program.code).output, "big") == 110
    assert "unused" not in program.labels            # declared but never called: not emitted
    assert "double" in program.labels


def test_source_map_names_nested_scopes():
    asm = Assembler("pairing")
    with asm.temps(Fp2) as (t,):
        with asm.scope("line_dbl"):
            with asm.scope("fp2_mul"):
                asm.evm384("MULMODMONT384", t.c0, t.c0, t.c1, t.c1)
        asm.op("STOP")
    program = asm.assemble()
    first, second = disassemble(program.code)
    assert program.source_map[first.pc].path == ("pairing", "line_dbl", "fp2_mul")
    assert program.source_map[first.pc + 5].routine == "pairing"
    assert str(program.source_map[first.pc]) == "fp2_mul in line_dbl in pairing"
    assert program.source_map[second.pc].path == ("pairing",)


def test_scope_entries_are_where_each_run_of_a_scope_begins():
    asm = Assembler("main")
    pad = asm.subroutine("pad", lambda a: a.op("JUMPDEST"))
    for _ in range(2):                              # fp2_mul inlined twice, in one outer scope
        with asm.scope("outer"), asm.scope("fp2_mul"):
            asm.op("CALLER")
        asm.op("POP")
    with asm.scope("pad"):                          # a scope inside one of the same name
        asm.call(pad)
    asm.op("STOP")
    asm.data(b"\x01\x02")
    program = asm.assemble()
    entries = program.scope_entries()
    # main: 0; CALLER (0) POP (1) CALLER (2) POP (3); the call: PUSH1 ret (4) PUSH1 pad (6)
    # JUMP (8) ret: JUMPDEST (9), STOP (10); pad: JUMPDEST (11) JUMPDEST (12) JUMP (13)
    assert entries == {"main": [0], "outer": [0, 2], "fp2_mul": [0, 2], "pad": [4, 11]}


def test_disassembler_folds_evm384_offsets_and_names_slots():
    asm = Assembler()
    f = asm.memory.region("state").alloc(Fp12, "f")
    p = asm.memory.region("consts").alloc(Fp, "p")
    asm.evm384("SUBMOD384", f.c1.c2.c1, p, f.c0.c0.c0, p)
    program = asm.assemble()
    (ins,) = disassemble(program.code)
    assert ins.name == "SUBMOD384" and ins.size == 18
    assert ins.offsets() == (int(f) + 11 * 48, int(p), int(f), int(p))
    assert ins.text(program.memory) == \
        "SUBMOD384 out=state.f.c1.c2.c1 x=consts.p y=state.f.c0.c0.c0 mod=consts.p"
    assert "SUBMOD384 out=state.f.c1.c2.c1" in program.listing()


def test_layout_orders_and_separates_regions():
    memory = Memory()
    a, b = memory.region("a"), memory.region("b")
    f = a.alloc(Fp12, "f")
    with a.scope():
        t = a.alloc(Fp6, "t")
    u = a.alloc(Fp2, "u")                      # reuses the released bytes of t
    q = b.alloc(G2Jacobian, "q")
    memory.link()
    assert int(f) == 0 and int(t) == int(u) == 576
    assert int(q) >= 576 + Fp6.size and int(q) % 32 == 0
    assert [int(fp) for fp in f.fps()] == [48 * i for i in range(12)]
    assert int(f.c1.c0.c1) == 7 * 48                 # tower order of spec §2
    assert int(q.z.c1) == int(q) + 5 * 48
    assert memory.name_of(int(q) + 5 * 48 + 3) == "b.q.z.c1+3"
    with pytest.raises(AttributeError):
        f.c2


def test_subroutine_frames_are_private_and_entries_can_be_skipped():
    """A subroutine's temporaries never overlap its caller's; call(at=) enters mid-body."""
    from evm384_native.asm import raw
    asm = Assembler()
    cell = asm.memory.region("io").alloc(raw(32), "cell")
    entries = [asm.new_label(f"inc{k}") for k in range(4)]

    def incrementer(a):                        # adds 1 per step left after the entry point
        for k in range(3, 0, -1):
            if k < 3:
                a.place(entries[k])
            a.push(cell); a.op("MLOAD"); a.push(1); a.op("ADD"); a.push(cell); a.op("MSTORE")
    chain = asm.subroutine("chain", incrementer)
    entries[3] = chain.entry
    inner_slot = []

    def inner_body(a):
        with a.temps(Fp2) as (t,):
            inner_slot.append(t)
    inner = asm.subroutine("inner", inner_body)
    with asm.temps(Fp12) as (mine,):
        asm.call(chain)                        # +3
        asm.call(chain, at=entries[1])         # +1
        asm.call(chain, at=entries[2])         # +2
        asm.call(inner)
    asm.push(32); asm.push(cell); asm.op("RETURN")
    program = asm.assemble()
    assert int.from_bytes(run(program.code).output, "big") == 6
    (theirs,) = inner_slot
    assert theirs.region is not mine.region
    assert not (int(mine) <= int(theirs) < int(mine) + Fp12.size)


def test_bound_subroutine_arguments_and_profile_by_scope():
    from evm384_native.asm import struct
    from evm384_native.asm.profile import by_scope, report
    from evm384_native.evm.tracing import Profiler
    asm = Assembler("prog")
    Pair = struct("Pair", ("a", Fp), ("b", Fp))
    io = asm.memory.region("io")
    pair, mod = io.alloc(Pair, "pair"), io.alloc(Fp, "mod")

    def body(a, x, y):
        with a.scope("adder"):
            a.evm384("ADDMOD384", x, x, y, mod)
    add = asm.subroutine("add_into_a", body, {"x": pair.a, "y": pair.b})
    assert add.x.name == "io.pair.a"                   # bound, not a fresh argument slot
    asm.ops("CALLDATASIZE"); asm.push(0); asm.push(pair); asm.op("CALLDATACOPY")
    for _ in range(3):
        asm.call(add)
    asm.push(48); asm.push(pair.a); asm.op("RETURN")
    program = asm.assemble()
    profiler = Profiler()
    result = run(program.code, (5).to_bytes(48, "little") + (7).to_bytes(48, "little")
                 + (1000).to_bytes(48, "little"), tracer=profiler)
    assert int.from_bytes(result.output, "little") == 26
    assert int(pair.b) == int(pair) + 48 == int(add.y)
    totals = by_scope(program, profiler.by_pc, only=("ADDMOD384",))
    assert totals == {("add_into_a", "adder"): 3}
    assert "adder in add_into_a" in report(totals)


@given(st.lists(st.tuples(st.integers(0, 600), st.integers(0, (1 << 256) - 1)), min_size=1,
                max_size=6))
def test_jumps_land_on_their_labels_whatever_the_distances(blocks):
    """Forward jumps over blocks of random size (PUSH widths relax from 1 to 2 bytes) and
    pushes of random values; the listing round-trips the instruction sequence."""
    asm = Assembler()
    labels = [asm.new_label("b") for _ in blocks]
    for (padding, value), label in zip(blocks, labels):
        asm.jump(label)
        asm.push(value)                        # dead code, just takes space
        for _ in range(padding):
            asm.op("INVALID")
        asm.place(label)
    asm.op("STOP")
    program = asm.assemble()
    code = program.code
    for label in labels:
        assert code[program.labels[label.name]] == 0x5B
    names = [ins.name for ins in disassemble(code)]
    assert names.count("JUMP") == len(blocks) and names[-1] == "STOP"
    assert run(code).success


def test_step_printer_names_code_and_slots():
    import io
    from evm384_native.asm.profile import step_printer
    asm = Assembler("prog")
    x = asm.memory.region("io").alloc(Fp, "x")
    with asm.scope("square"):
        asm.evm384("MULMODMONT384", x, x, x, x)
    asm.op("STOP")
    program = asm.assemble()
    buffer = io.StringIO()
    run(program.code, tracer=step_printer(program, buffer, only=("MULMODMONT384",)))
    assert buffer.getvalue() == "     0 MULMODMONT384 out=io.x x=io.x y=io.x mod=io.x  ; square in prog\n"


def test_rebinding_a_subroutine_to_other_slots_is_refused():
    asm = Assembler()
    region = asm.memory.region("io")
    a, b = region.alloc(Fp, "a"), region.alloc(Fp, "b")
    first = asm.subroutine("sq", lambda s, x: None, {"x": a})
    assert asm.subroutine("sq", lambda s, x: None, {"x": a}) is first
    with pytest.raises(ValueError):
        asm.subroutine("sq", lambda s, x: None, {"x": b})


@pytest.mark.parametrize("digits,width", [([3, 0, 5, 1], 3), ([0, 0, 1], 1), ([1] * 127, 1),
                                          ([15, 0, 0], 4)])
def test_digit_loop_visits_every_digit_in_order(digits, width):
    """The body sees each digit once, first to last, leading and trailing zeros included."""
    asm = Assembler("digits")

    def body():                              # acc = acc << width | digit, at memory 0
        asm.push(0); asm.op("MLOAD"); asm.push(width); asm.op("SHL"); asm.op("OR")
        asm.push(0); asm.op("MSTORE")
    asm.push(1); asm.push(32); asm.op("MSTORE")          # count the turns at memory 32
    asm.digit_loop(digits, width, lambda: (body(), asm.push(32), asm.op("MLOAD"), asm.push(1),
                                           asm.op("ADD"), asm.push(32), asm.op("MSTORE")))
    asm.push(64); asm.push(0); asm.op("RETURN")
    output = run(asm.assemble().code).output
    value = 0
    for digit in digits:
        value = value << width | digit
    assert int.from_bytes(output[:32], "big") == value
    assert int.from_bytes(output[32:], "big") == len(digits) + 1


class _Recorder:
    """Late code that records what it was told and emits PUSH1 n per operation."""

    def __init__(self):
        self.ops, self.released = [], []

    def segments(self):
        return [(("late",), b"".join(bytes([0x60, n]) for n in self.ops))]

    def release(self, slots):
        self.released += slots


def test_late_blocks_collect_until_other_code_and_compile_after_linking():
    asm = Assembler("t")
    key = object()
    first = asm.late_block(key, _Recorder)
    assert asm.late_block(key, _Recorder) is first           # still the last item
    assert asm.late_block(object(), _Recorder) is not first  # another key: a new block
    asm.op("POP")
    third = asm.late_block(key, _Recorder)
    assert third is not first                                # any other item closes it
    first.ops += [1, 2]
    third.ops.append(3)
    with asm.temps(Fp) as (t,):
        block = asm.late_block(key, _Recorder)
    assert block.released == [t]                             # temps leaving scope
    asm.op("STOP")
    program = asm.assemble()
    assert program.code == bytes([0x60, 1, 0x60, 2, 0x50, 0x60, 3, 0x00])


def test_a_region_made_last_is_linked_after_the_others():
    memory = Memory()
    tail = memory.region("tail", last=True)
    tail.alloc(Fp, "x")
    memory.region("head").alloc(Fp2, "y")
    memory.link()
    assert memory.by_name["head"].base == 0 and tail.base == 96
