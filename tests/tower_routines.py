"""Field-tower routines run alone as EVM384 code: a routine's inputs come in as calldata in
Montgomery form, its output goes out as the program's return data (the tower tests of each
curve check every routine so against a model)."""
from __future__ import annotations

from typing import Callable, List, Sequence, Tuple

from evm384_native import execute
from evm384_native.asm import Assembler
from evm384_native.curves.model import PairingCurve
from evm384_native.evm.kernels.montgomery import from_montgomery, to_montgomery
from evm384_native.tower.fp import Emitter

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
