"""Running k = 6 tower routines over BW6-761 as EVMMAX programs: inputs as 96-byte
big-endian calldata values, outputs as 96-byte big-endian values (the tests' harness for
tower/fp3.py, tower/fp6_over_fp3.py and the pairing's pieces)."""
from evm384_native import execute
from evm384_native.asm import raw
from evm384_native.curves.bw6_761 import BW6_761
from evm384_native.tower.contract import assemble
from evm384_native.tower.targets import resolve_target

VALUE = 96


def run_routine(build, inputs, out_kind, engine="fast", target="evmmax", gas=10**9):
    """build(e, out, *input slots); inputs [(slot type, values)]; the output's values."""
    def emit(e):
        asm = e.asm
        io = asm.memory.region("io")
        slots = [io.alloc(kind, f"in{i}") for i, (kind, _) in enumerate(inputs)]
        out = io.alloc(out_kind, "out")
        offset = 0
        for slot, (_, values) in zip(slots, inputs):
            staged = e.target.staging(e, slot)
            asm.push(VALUE * len(values))
            asm.push(offset)
            asm.push(staged)
            asm.op("CALLDATACOPY")
            e.target.from_staging(e, slot, staged, little_endian=False)
            offset += VALUE * len(values)
        build(e, out, *slots)
        words = asm.memory.region("output").alloc(raw(VALUE * len(out.fps())), "output")
        e.target.values_out(e, out, words, VALUE)
        asm.push(words.size)
        asm.push(words)
        asm.op("RETURN")
    code = assemble("routine", BW6_761, resolve_target(target), emit, compact=False).code
    calldata = b"".join(v.to_bytes(VALUE, "big") for _, values in inputs for v in values)
    result = execute(code, calldata, opcodes=target, gas=gas, engine=engine)
    assert result.success, result.error
    return [int.from_bytes(result.output[i:i + VALUE], "big")
            for i in range(0, len(result.output), VALUE)]


def to_poly(values):
    """Tower values (slot order c0.c0 c0.c1 c0.c2 c1.c0 c1.c1 c1.c2; fewer for Fp3) as a
    polynomial in w: c_j.c_i multiplies w^(2 i + j)."""
    out = [0] * 6
    for index, v in enumerate(values):
        j, i = divmod(index, 3)
        out[2 * i + j] = v
    return out


def from_poly(poly):
    return [poly[2 * i + j] for j in range(2) for i in range(3)]
