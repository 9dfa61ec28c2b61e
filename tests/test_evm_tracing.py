"""EIP-3155 tracer, step hook and profiler."""
import io
import json

from evm384_native import execute
from evm384_native.evm import Eip3155Tracer, Profiler, StepHook, Tracer

from evm_helpers import asm, evm384_word, memory_gas, push
from evm_programs import fp2_calldata, fp2_mul_loop

STEP_FIELDS = {"pc", "op", "gas", "gasCost", "memSize", "stack", "depth", "returnData", "refund",
               "opName"}
PROGRAM = asm(push(1, 1), push(2, 1), "ADD", push(0, 1), "MSTORE", push(32, 1), push(0, 1),
              "RETURN")


def trace(code, calldata=b"", gas=100, memory=False):
    out = io.StringIO()
    result = execute(code, calldata, gas=gas, tracer=Eip3155Tracer(out, memory=memory))
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return result, lines[:-1], lines[-1]


def test_eip3155_lines_by_hand():
    result, steps, summary = trace(PROGRAM)
    assert [set(step) for step in steps] == [STEP_FIELDS] * 8
    assert [(s["pc"], s["op"], s["opName"]) for s in steps] == [
        (0, 0x60, "PUSH1"), (2, 0x60, "PUSH1"), (4, 0x01, "ADD"), (5, 0x60, "PUSH1"),
        (7, 0x52, "MSTORE"), (8, 0x60, "PUSH1"), (10, 0x60, "PUSH1"), (12, 0xF3, "RETURN")]
    assert [s["gas"] for s in steps] == [hex(g) for g in (100, 97, 94, 91, 88, 82, 79, 76)]
    assert [s["gasCost"] for s in steps] == ["0x3", "0x3", "0x3", "0x3", "0x6", "0x3", "0x3",
                                             "0x0"]
    assert [s["stack"] for s in steps[:4]] == [[], ["0x1"], ["0x1", "0x2"], ["0x3"]]
    assert [s["memSize"] for s in steps] == [0, 0, 0, 0, 0, 32, 32, 32]
    assert {(s["depth"], s["returnData"], s["refund"]) for s in steps} == {(1, "0x", 0)}
    assert summary == {"output": "0x" + (3).to_bytes(32, "big").hex(), "gasUsed": "0x18",
                       "pass": True}
    assert result.gas_used == 24


def test_eip3155_error_line_and_summary():
    result, steps, summary = trace(asm(push(1, 1), "ADD"), gas=50)
    assert steps[-1]["error"] == "stack underflow" and steps[-1]["gasCost"] == hex(47)
    assert "error" not in steps[0]
    assert summary == {"output": "0x", "gasUsed": hex(50), "pass": False,
                       "error": "stack underflow"}
    assert result.steps == len(steps) == 2


def test_eip3155_gas_chain_adds_up_on_an_evm384_loop():
    values = [3, 5, 7, 11]
    result, steps, summary = trace(fp2_mul_loop(3), fp2_calldata(*values), gas=10**6,
                                   memory=True)
    assert len(steps) == result.steps
    for before, after in zip(steps, steps[1:]):
        assert int(after["gas"], 16) == int(before["gas"], 16) - int(before["gasCost"], 16)
    assert sum(int(s["gasCost"], 16) for s in steps) == result.gas_used == int(summary["gasUsed"],
                                                                              16)
    assert all(len(s["memory"]) == 2 + 2 * s["memSize"] for s in steps)
    untraced = execute(fp2_mul_loop(3), fp2_calldata(*values), gas=10**6)
    assert untraced == result


def test_step_hook_sees_stack_and_memory_before_each_instruction():
    seen = []
    execute(PROGRAM, tracer=lambda step: seen.append((step.pc, step.opcode, step.name,
                                                      step.stack, step.memory)))
    assert seen[2] == (4, 0x01, "ADD", (1, 2), b"")
    assert seen[5][4] == (3).to_bytes(32, "big")  # after the MSTORE
    hooked = []
    execute(bytes([0x7F, 0xAB]), tracer=StepHook(lambda step: hooked.append(step.stack)))
    assert hooked == [(), (0xAB << 248,)]  # PUSH32 cut off by the end reads zeros, then STOP


def test_profiler_counts_and_gas():
    values = [3, 5, 7, 11]
    profile = Profiler()
    result = execute(fp2_mul_loop(4), fp2_calldata(*values), tracer=profile)
    assert {name: entry.count for name, entry in profile.by_opcode.items()} == \
        result.opcode_counts
    assert sum(entry.gas for entry in profile.by_opcode.values()) == result.gas_used
    assert profile.by_opcode["MULMODMONT384"].count == 12
    # the first two grow memory from 256 (calldata) to T0 + 48 = 304, then T1 + 48 = 352
    assert profile.by_opcode["MULMODMONT384"].gas == 12 * 24 + memory_gas(352) - memory_gas(256)
    assert profile.by_pc[9] == 4  # the loop's JUMPDEST
    report = profile.report()
    assert report.splitlines()[1].split()[0] == "MULMODMONT384"


def test_several_tracers_at_once():
    class Events(Tracer):
        def __init__(self):
            self.events = []

        def on_start(self, code, calldata, gas):
            self.events.append(("start", gas))

        def on_end(self, result):
            self.events.append(("end", result.success))

    events, profile, hooked = Events(), Profiler(), []
    execute(PROGRAM, gas=100, tracer=[events, profile, hooked.append])
    assert events.events == [("start", 100), ("end", True)]
    assert profile.by_opcode["PUSH1"].count == 5 and len(hooked) == 8


def test_traced_evm384_program_matches_untraced():
    code = asm(push(evm384_word(0, 48, 96, 144), 16), "MULMODMONT384", "STOP")
    assert execute(code, tracer=Tracer()) == execute(code)
