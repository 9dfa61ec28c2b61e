"""Field-tower routines run alone as EVM384 code: a routine's inputs come in as calldata in
Montgomery form, its output goes out as the program's return data (the tower tests of each
curve check every routine so against a model); or, through :func:`run_on_target`, as a
contract is built for a target (its setup, plain values in and out)."""
from __future__ import annotations

from typing import Callable, List, Sequence, Tuple

from evm384_native import execute
from evm384_native.asm import Assembler, raw
from evm384_native.curves.model import PairingCurve
from evm384_native.evm.kernels.montgomery import from_montgomery, to_montgomery
from evm384_native.tower.contract import assemble
from evm384_native.tower.fp import Emitter
from evm384_native.tower.targets import resolve_target

VALUE_BYTES = 48                  # an Fp value in an EVM384 slot: little-endian


def run_routine(curve: PairingCurve, build: Callable[..., None],
                inputs: Sequence[Tuple[type, Sequence[int]]], out_kind: type) -> List[int]:
    """Run ``build(e, out, *input_slots)`` over ``curve`` on ``inputs`` ((slot kind, its Fp
    values) each); returns out's Fp values."""
    asm = Assembler("test")
    e = Emitter(asm, curve)
    io = asm.memory.region("io")
    slots = [io.alloc(kind, f"in{i}") for i, (kind, _) in enumerate(inputs)]
    out = io.alloc(out_kind, "out")
    calldata = b"".join(to_montgomery(v, curve.p).to_bytes(VALUE_BYTES, "little")
                        for _, values in inputs for v in values)
    asm.push(len(calldata)); asm.push(0); asm.push(slots[0]); asm.op("CALLDATACOPY")
    build(e, out, *slots)
    asm.push(out.size); asm.push(out); asm.op("RETURN")
    e.finish()
    result = execute(asm.assemble().code, calldata, gas=10**8)
    assert result.success, result.error
    return [from_montgomery(int.from_bytes(result.output[i:i + VALUE_BYTES], "little"), curve.p)
            for i in range(0, len(result.output), VALUE_BYTES)]


def run_on_target(curve, build, inputs, out_kind, *, target, value_bytes, little_endian,
                  out_word, compact=False, engine="fast", gas=10**9):
    """build(e, out, *input slots) as a program over ``curve`` for a target (EVM384 or
    EVMMAX, the target's setup and value forms: plain values in); ``inputs``
    [(slot type, values)] as ``value_bytes``-byte calldata values (little- or big-endian);
    the output's values, each returned as an ``out_word``-byte big-endian word."""
    def emit(e):
        asm = e.asm
        io = asm.memory.region("io")
        slots = [io.alloc(kind, f"in{i}") for i, (kind, _) in enumerate(inputs)]
        out = io.alloc(out_kind, "out")
        offset = 0
        for slot, (_, values) in zip(slots, inputs):
            staged = e.target.staging(e, slot)
            asm.push(value_bytes * len(values))
            asm.push(offset)
            asm.push(staged)
            asm.op("CALLDATACOPY")
            e.target.from_staging(e, slot, staged, little_endian=little_endian)
            offset += value_bytes * len(values)
        build(e, out, *slots)
        words = asm.memory.region("output").alloc(raw(out_word * len(out.fps())), "output")
        e.target.values_out(e, out, words, out_word)
        asm.push(words.size)
        asm.push(words)
        asm.op("RETURN")
    code = assemble("routine", curve, resolve_target(target), emit, compact).code
    order = "little" if little_endian else "big"
    calldata = b"".join(v.to_bytes(value_bytes, order) for _, values in inputs for v in values)
    result = execute(code, calldata, opcodes=target, gas=gas, engine=engine)
    assert result.success, result.error
    return [int.from_bytes(result.output[i:i + out_word], "big")
            for i in range(0, len(result.output), out_word)]
