"""The tracer, step view and profiler under EVMMAX: field contexts, registers as canonical
values (against Python integers), decoded immediates, per-context profile."""
from __future__ import annotations

import io
import json
import random

import pytest

from evm384_native.evm import Eip3155Tracer, Profiler, execute

from test_evm_evmmax import (ADDMODX, LOADX, MULMODX, STOREX, SUBMODX, VALUES_AT, context_prefix,
                             encode, mstore_bytes, returning, setmodx, transfer, vector)

RNG = random.Random(14)
MODULUS = RNG.randrange(2**380, 2**381) | 1
VALUES = [RNG.randrange(MODULUS) for _ in range(4)]
SMALL = 2**70                     # a power of two: two limbs, values stored as they are


def program() -> bytes:
    """Context 0 (MODULUS, 7 registers): STOREX the four values, MULMODX r4 = r0 * r2,
    r5 = r1 * r3; context 7 (2**70, 3 registers): r0 = 5 + 5; back to context 0: SUBMODX."""
    return (context_prefix(MODULUS, 7) + mstore_bytes(VALUES_AT, encode(VALUES, 48))
            + transfer(STOREX, 0, VALUES_AT, 4) + vector(MULMODX, 4, 1, 0, 1, 2, 1, 2)
            + mstore_bytes(512, SMALL.to_bytes(16, "big")) + setmodx(7, 512, 16, 3)
            + mstore_bytes(VALUES_AT, encode([5], 16)) + transfer(STOREX, 0, VALUES_AT, 1)
            + vector(ADDMODX, 1, 1, 0, 0, 0, 0, 1) + setmodx(0, 0, 0, 0)
            + vector(SUBMODX, 0, 1, 4, 1, 5, 0, 1) + transfer(LOADX, VALUES_AT, 0, 1)
            + returning(VALUES_AT, 48))


def states(code: bytes):
    """(name, active id, contexts, registers of each context) before every instruction."""
    seen = []

    def hook(step):
        contexts = step.field_contexts
        seen.append((step.name, step.active_context, contexts,
                     {c.id: step.registers(c.id) for c in contexts}, step.immediates))
    result = execute(code, opcodes="evmmax", tracer=hook)
    assert result.success, result.error
    return result, seen


def test_registers_are_canonical_values():
    result, seen = states(program())
    names = [entry[0] for entry in seen]
    first_mul, add, sub = names.index("MULMODX"), names.index("ADDMODX"), names.index("SUBMODX")
    _, active, contexts, registers, immediates = seen[first_mul]
    assert active == 0 and [(c.id, c.modulus, c.element_size, c.register_count)
                            for c in contexts] == [(0, MODULUS, 48, 7)]
    assert registers[0] == tuple(VALUES) + (0, 0, 0)
    assert immediates == {"out_idx": 4, "out_stride": 1, "x_idx": 0, "x_stride": 1,
                          "y_idx": 2, "y_stride": 1, "count": 2}
    products = (VALUES[0] * VALUES[2] % MODULUS, VALUES[1] * VALUES[3] % MODULUS)
    _, active, contexts, registers, _ = seen[add]
    assert active == 7 and [c.id for c in contexts] == [0, 7]
    assert (contexts[1].modulus, contexts[1].element_size) == (SMALL, 16)
    assert registers[0][4:6] == products and registers[7] == (5, 0, 0)
    _, active, _, registers, _ = seen[sub]
    assert active == 0 and registers[7] == (5, 10, 0)
    expected = (products[0] - products[1]) % MODULUS
    assert result.output == expected.to_bytes(48, "big")
    assert seen[0][1:4] == (None, [], {})                  # no context yet
    assert seen[-1][3][0][0] == expected


def test_evm384_steps_have_no_field_contexts():
    seen = []
    execute(bytes([0x60, 1, 0x00]), tracer=lambda step: seen.append(
        (step.active_context, step.field_contexts, step.immediates)))
    assert seen == [(None, None, None), (None, None, None)]


def test_registers_of_a_missing_context():
    errors = []

    def hook(step):
        for context_id in (None, 3):
            try:
                step.registers(context_id)
            except KeyError as error:
                errors.append(str(error))
    execute(bytes([0x00]), opcodes="evmmax", tracer=hook)
    assert errors == ["'no active field context'", "'no field context 3'"]


@pytest.mark.parametrize("registers", [False, True])
def test_eip3155_lines_under_evmmax(registers):
    out = io.StringIO()
    result = execute(program(), opcodes="evmmax", tracer=Eip3155Tracer(out, registers=registers))
    lines = [json.loads(line) for line in out.getvalue().splitlines()][:-1]
    _, seen = states(program())
    assert len(lines) == len(seen) and result.success
    for line, (name, active, contexts, values, immediates) in zip(lines, seen):
        assert line["opName"] == name
        assert line.get("immediates") == immediates
        if active is None:
            assert "fieldContext" not in line and "registers" not in line
            continue
        context = next(c for c in contexts if c.id == active)
        assert line["fieldContext"] == {"id": active, "modulus": hex(context.modulus),
                                        "elementSize": context.element_size}
        assert line.get("registers") == ([hex(v) for v in values[active]] if registers else None)


def test_profiler_counts_per_field_context():
    profiler = Profiler()
    result = execute(program(), opcodes="evmmax", tracer=profiler)
    assert result.success
    by_context = profiler.by_context
    assert sorted(by_context) == [0, 7]
    # context 0: SETMODX, STOREX, MULMODX (2 elements), SETMODX (re-activation), SUBMODX, LOADX
    assert (by_context[0].instructions, by_context[0].elements) == (6, 3)
    assert (by_context[7].instructions, by_context[7].elements) == (3, 1)
    evmmax_gas = sum(profiler.by_opcode[name].gas for name in
                     ("SETMODX", "LOADX", "STOREX", "ADDMODX", "SUBMODX", "MULMODX"))
    assert by_context[0].gas + by_context[7].gas == evmmax_gas
    assert by_context[0].context.modulus == MODULUS
    report = profiler.report().splitlines()
    assert report[-3].split() == ["field", "context", "modulus", "bits", "element", "EVMMAX",
                                  "ops", "elements", "gas"]
    assert report[-2].split() == ["0", "381", "48B", "6", "3", str(by_context[0].gas)]
    assert report[-1].split() == ["7", "71", "16B", "3", "1", str(by_context[7].gas)]
