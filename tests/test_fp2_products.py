"""The native loops' Fp2 products run as Karatsuba (evm/fp2_products.py marks them,
csrc/fp2_product.h runs them in the fast engine's loop and in evm384_run_records): which
groups are marked, the C step's guards, and the same bytes and gas as the six EVM384 ops
everywhere, guard edges included."""
from __future__ import annotations

import random
from typing import Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.evm.kernels import kernel
from evm384_native._native import ffi, lib
from evm384_native.bls12_381 import build_contract
from evm384_native.evm import fp2_products
from evm384_native.evm.code import decode
from evm384_native.evm.gas import resolve_schedule
from evm384_native.evm.opcode_sets import EVM384

from evm_helpers import asm, evm384_word, push, run_everywhere
from evm_programs import P, P_INV, R_INV

# memory: the modulus with inv at 0, inputs, temporaries, outputs; 48 bytes each
MOD, A0, A1, B0, B1, T0, T1, T2, C1, C0, SPARE = 0, 64, 112, 160, 208, 256, 304, 352, 400, 448, 496
END = SPARE + 48
SCHEDULE = resolve_schedule("update5-A")


def op(name: str, out: int, x: int, y: int, mod: int = MOD) -> bytes:
    return asm(push(evm384_word(out, x, y, mod), 16), name)


def group(t0=T0, t1=T1, t2=T2, c1=C1, c0=C0, a0=A0, a1=A1, b0=B0, b1=B1,
          swapped_sum=False, mods=(MOD,) * 6) -> List[bytes]:
    """The six ops of tower.fp2.mul."""
    return [op("MULMODMONT384", t0, a0, b0, mods[0]), op("MULMODMONT384", t1, a1, b1, mods[1]),
            op("MULMODMONT384", t2, a0, b1, mods[2]), op("MULMODMONT384", c1, a1, b0, mods[3]),
            op("ADDMOD384", c1, *((t2, c1) if swapped_sum else (c1, t2)), mods[4]),
            op("SUBMOD384", c0, t0, t1, mods[5])]


# writes t0, t1 and t2 without reading them
KILL_T0, KILL_T1, KILL_T2 = (op("ADDMOD384", t, A0, A1) for t in (T0, T1, T2))
KILL_TEMPORARIES = KILL_T0 + KILL_T1 + KILL_T2


def program(*pieces: bytes, between: bytes = b"") -> bytes:
    """Calldata into memory, the pieces (``between`` after the first), all memory returned."""
    body = pieces[0] + between + b"".join(pieces[1:])
    return asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY", body,
               push(END, 2), push(0, 1), "RETURN")


def calldata(values: Dict[int, int], modulus: int = P, inv: int = P_INV,
             rng: random.Random = random.Random(0)) -> bytes:
    """The memory image: the modulus and inv, the values at their offsets, random bytes
    elsewhere (so that what is left alone is seen to be left alone)."""
    image = bytearray(rng.randbytes(END))
    image[MOD:MOD + 56] = modulus.to_bytes(48, "little") + inv.to_bytes(8, "little")
    for offset, value in values.items():
        image[offset:offset + 48] = value.to_bytes(48, "little")
    return bytes(image)


def marked_rows(code: bytes) -> List[int]:
    table = decode(code, SCHEDULE, True, EVM384).segments
    records = fp2_products.marked(table)
    return [int(row) for row in np.flatnonzero(records[:, 1] & fp2_products.FP2_PRODUCT_FLAG)]


def canonical_inputs(rng: random.Random) -> Dict[int, int]:
    return {slot: rng.randrange(P) for slot in (A0, A1, B0, B1)}


def expected_product(values: Dict[int, int]) -> Tuple[int, int]:
    """(c0, c1) by Python integers: (a0 + a1 u)(b0 + b1 u) / R, u^2 = -1."""
    a0, a1, b0, b1 = (values[s] for s in (A0, A1, B0, B1))
    return (a0 * b0 - a1 * b1) * R_INV % P, (a0 * b1 + a1 * b0) * R_INV % P


# --- which groups are marked --------------------------------------------------------------

def test_the_group_is_marked_when_its_temporaries_are_overwritten_before_they_are_read():
    assert marked_rows(program(b"".join(group()), KILL_TEMPORARIES)) == [0]
    assert marked_rows(program(b"".join(group(swapped_sum=True)), KILL_TEMPORARIES)) == [0]
    assert marked_rows(program(b"".join(group()), KILL_T2 + KILL_T0 + KILL_T1)) == [0]


@pytest.mark.parametrize("variant, code", [
    ("t2 never overwritten", program(b"".join(group()), KILL_T0 + KILL_T1)),
    ("t0 never overwritten", program(b"".join(group()), KILL_T1 + KILL_T2)),
    ("t1 read first", program(b"".join(group()), op("ADDMOD384", SPARE, T1, A0),
                              KILL_TEMPORARIES)),
    ("t2 read first", program(b"".join(group()), op("ADDMOD384", SPARE, T2, A0),
                              KILL_TEMPORARIES)),
    ("t2 partly overwritten", program(b"".join(group()), op("ADDMOD384", T2 + 8, A0, A1),
                                      KILL_TEMPORARIES)),
    ("t2 overwritten in the next segment", program(b"".join(group()), KILL_TEMPORARIES,
                                                   between=asm("JUMPDEST"))),
    ("t0 overlaps a1", program(b"".join(group(t0=A1 + 16)), KILL_TEMPORARIES)),
    ("t2 is an input", program(b"".join(group(t2=B0)), KILL_TEMPORARIES)),
    ("c0 overlaps c1", program(b"".join(group(c0=C1 + 8)), KILL_TEMPORARIES)),
    ("an output overlaps the modulus", program(b"".join(group(c0=MOD + 8)),
                                               KILL_TEMPORARIES)),
    ("two moduli", program(b"".join(group(mods=(MOD,) * 5 + (SPARE,))), KILL_TEMPORARIES)),
    ("other operands", program(b"".join(group()[:3] + [op("MULMODMONT384", C1, A0, B0)]
                                        + group()[4:]), KILL_TEMPORARIES)),
    ("a PUSH between", program(b"".join(group()[:3]) + push(0, 1) + asm("POP")
                               + b"".join(group()[3:]), KILL_TEMPORARIES)),
])
def test_groups_that_are_not_proven_stay_op_by_op(variant, code):
    assert marked_rows(code) == [], variant
    values = canonical_inputs(random.Random(variant))
    run_everywhere(code, calldata(values), schedule="update5-A")


def test_outputs_may_alias_the_inputs():
    """c1 and c0 are written after every input is read, as op by op."""
    code = program(b"".join(group(c1=A0, c0=B1)), KILL_TEMPORARIES)
    assert marked_rows(code) == [0]
    values = canonical_inputs(random.Random(3))
    result = run_everywhere(code, calldata(values), schedule="update5-A")
    c0, c1 = expected_product(values)
    assert result.output[A0:A0 + 48] == c1.to_bytes(48, "little")
    assert result.output[B1:B1 + 48] == c0.to_bytes(48, "little")


def test_the_pairing_contract_has_its_fp2_products_marked():
    table = decode(build_contract("pairing_product_is_one"), SCHEDULE, True, EVM384).segments
    marked = fp2_products.marked(table)
    assert np.count_nonzero(marked[:, 1] & fp2_products.FP2_PRODUCT_FLAG) >= 30
    assert np.array_equal(marked[:, 1] & 0xff, table.records[:, 1])   # nothing else changes
    assert np.array_equal(marked[:, [0, 2, 3, 4, 5]], table.records[:, [0, 2, 3, 4, 5]])


# --- the C step and its guards ------------------------------------------------------------

def _records(code: bytes) -> np.ndarray:
    return np.ascontiguousarray(decode(code, SCHEDULE, True, EVM384).segments.records[:6])


C_GROUP = _records(program(b"".join(group()), KILL_TEMPORARIES))


def c_step(image: bytes) -> Tuple[int, bytes]:
    memory = ffi.new("uint8_t[]", len(image))
    ffi.memmove(memory, image, len(image))
    ran = lib.evm_fast_fp2_product(memory, ffi.from_buffer("uint32_t[]", C_GROUP))
    return ran, bytes(ffi.buffer(memory))



def test_the_c_step_writes_the_six_ops_bytes_in_c1_and_c0_and_nothing_else(implementation):
    rng = random.Random(11)
    for _ in range(50):
        values = canonical_inputs(rng)
        image = calldata(values, rng=rng)
        ran, after = c_step(image)
        c0, c1 = expected_product(values)
        expected = bytearray(image)
        for slot, value in ((C1, c1), (C0, c0)):
            expected[slot:slot + 48] = value.to_bytes(48, "little")
        assert ran == 1 and after == bytes(expected)


TOP = P >> 320 << 320                       # p's top limb, the rest zero: below p


@pytest.mark.parametrize("edge, values, modulus, inv", [
    ("an input equal to p", {A0: P}, P, P_INV),
    ("an input above p", {B1: 2**384 - 1}, P, P_INV),
    ("wrong inv", {}, P, P_INV ^ 2),
    ("even modulus", {}, P + 1, P_INV),
    ("a modulus of 383 bits", {}, 2**382 + 1 + 2 * (P >> 1), None),
])
def test_guards(edge, values, modulus, inv, implementation):
    """Where the guards fail, the C step writes nothing and the engines still agree."""
    rng = random.Random(edge)
    if inv is None:
        inv = (-pow(modulus, -1, 2**64)) % 2**64
    inputs = {slot: rng.randrange(min(P, modulus)) for slot in (A0, A1, B0, B1)}
    inputs.update(values)
    image = calldata(inputs, modulus, inv, rng)
    ran, after = c_step(image)
    assert (ran, after) == (0, image), edge
    run_everywhere(program(b"".join(group()), KILL_TEMPORARIES), image,
                   schedule="update5-A")


def test_inputs_just_below_p_run_as_karatsuba():
    values = {A0: P - 1, A1: P - 2, B0: TOP, B1: TOP - 1}
    ran, after = c_step(calldata(values))
    c0, c1 = expected_product(values)
    assert ran == 1
    assert after[C0:C0 + 48] + after[C1:C1 + 48] == c0.to_bytes(48, "little") + \
        c1.to_bytes(48, "little")


def test_a_modulus_below_2_382_with_its_inv_runs_as_karatsuba():
    modulus = (1 << 381) + 0x1234567 * 2 + 1
    inv = (-pow(modulus, -1, 2**64)) % 2**64
    rng = random.Random(5)
    inputs = {slot: rng.randrange(modulus) for slot in (A0, A1, B0, B1)}
    image = calldata(inputs, modulus, inv, rng)
    assert c_step(image)[0] == 1
    run_everywhere(program(b"".join(group()), KILL_TEMPORARIES), image,
                   schedule="update5-A")


def test_without_the_dead_temporaries_proof_the_engines_would_disagree(monkeypatch,
                                                                      implementation):
    """Both native loops (the fast engine's, and evm384_run_records under the python
    engine) do run marked groups as Karatsuba: marked wrongly (the temporaries are
    returned), t0, t1, t2 keep their old bytes there and not with the reference backend,
    which runs op by op."""
    from evm384_native import execute
    code = program(push(0x5EED, 2) + asm("POP") + push(len(implementation), 1) + asm("POP")
                   + b"".join(group()))                    # not analysed before
    image = calldata(canonical_inputs(random.Random(9)))
    monkeypatch.setattr(fp2_products, "dead_before_read", lambda *args: True)
    reference = execute(code, image, engine="python", backend="reference",
                        schedule="update5-A")
    for engine in ("fast", "python"):
        native = execute(code, image, engine=engine, schedule="update5-A")
        for t in (T0, T1, T2):
            assert native.output[t:t + 48] == image[t:t + 48] != reference.output[t:t + 48]
        assert native.output[:T0] == reference.output[:T0]
        assert native.output[T2 + 48:] == reference.output[T2 + 48:]
        assert native.gas_used == reference.gas_used


# --- every engine and backend, random inputs at the edges ----------------------------------

EDGES = [0, 1, P - 1, P - 2, TOP - 1, TOP, P, P + 1, 2**384 - 1]
values_near_edges = st.one_of(st.integers(0, P - 1), st.sampled_from(EDGES))


@settings(max_examples=60, deadline=None)
@given(st.tuples(values_near_edges, values_near_edges, values_near_edges, values_near_edges),
       st.sampled_from(["aliasing outputs", "separate outputs"]), st.randoms())
def test_every_engine_agrees_on_random_inputs(inputs, layout, rng):
    values = dict(zip((A0, A1, B0, B1), inputs))
    outputs = {"c1": A1, "c0": B0} if layout == "aliasing outputs" else {}
    code = program(b"".join(group(**outputs)), KILL_TEMPORARIES)
    result = run_everywhere(code, calldata(values, rng=rng), schedule="update5-A")
    if all(v < P for v in inputs):
        c0, c1 = expected_product(values)
        c0_at, c1_at = outputs.get("c0", C0), outputs.get("c1", C1)
        assert result.output[c0_at:c0_at + 48] == c0.to_bytes(48, "little")
        assert result.output[c1_at:c1_at + 48] == c1.to_bytes(48, "little")


# --- EVMMAX vector programs ----------------------------------------------------------------

from evm384_native.evm.kernels import modx, modx_reference  # noqa: E402
from evm384_native.evm.kernels.modx_common import FP2_PRODUCT_FLAG  # noqa: E402
from evm384_native.evm.kernels import modx_common  # noqa: E402
from evm384_native.curves.bn254 import BN254  # noqa: E402
from evm384_native.curves.secp256k1 import SECP256K1  # noqa: E402

# registers: a0, a1, b0, b1, t0, t1, t2, c1, c0, a spare, and one more (the EIP's bound
# idx + stride * count < register count leaves the last register out of reach)
RA0, RA1, RB0, RB1, RT0, RT1, RT2, RC1, RC0, RSPARE = range(10)
REGISTERS = RSPARE + 2


def one(operation: str, out: int, x: int, y: int) -> tuple:
    return operation, (out, 1, x, 1, y, 1, 1)


def vgroup(t0=RT0, t1=RT1, t2=RT2, c1=RC1, c0=RC0) -> list:
    return [one("mul", t0, RA0, RB0), one("mul", t1, RA1, RB1), one("mul", t2, RA0, RB1),
            one("mul", c1, RA1, RB0), one("add", c1, c1, t2), one("sub", c0, t0, t1)]


V_KILL = [one("add", t, RA0, RA1) for t in (RT0, RT1, RT2)]   # writes t0, t1, t2


def flagged(operations: list) -> List[int]:
    encoded = modx_common.VectorProgram(operations).encoded
    return [i for i in range(len(operations)) if encoded[8 * i] & FP2_PRODUCT_FLAG]


def test_the_c_and_python_flags_agree():
    assert lib.EVMMAX_FP2_PRODUCT_GROUP == FP2_PRODUCT_FLAG


def test_an_evmmax_group_is_flagged_when_its_temporaries_are_written_before_they_are_read():
    assert flagged(vgroup() + V_KILL) == [0]
    assert flagged(V_KILL + vgroup() + V_KILL[::-1]) == [3]


@pytest.mark.parametrize("variant, operations", [
    ("t2 never written", vgroup() + V_KILL[:2]),
    ("t0 never written", vgroup() + V_KILL[1:]),
    ("t2 read first", vgroup() + [one("add", RSPARE, RT2, RA0)] + V_KILL),
    ("t1 read first", vgroup() + [one("add", RSPARE, RT1, RA0)] + V_KILL),
    ("t2 read and written by one op", vgroup() + V_KILL[:2] + [one("add", RT2, RT2, RA0)]),
    ("t1, t2 written as part of a vector that reads them",
     vgroup() + V_KILL[:1] + [("add", (RT1, 1, RT1, 1, RA0, 0, 2))]),
    ("a vector of two", vgroup()[:4] + [("add", (RC1, 1, RC1, 1, RT2, 1, 2))]
     + vgroup()[5:] + V_KILL),
    ("t0 is an input", vgroup(t0=RA1) + V_KILL),
    ("c0 is c1", vgroup(c0=RC1) + V_KILL),
])
def test_evmmax_groups_that_are_not_proven_run_op_by_op(variant, operations):
    assert flagged(operations) == [], variant


def _files(m: int, values: List[int]):
    files = []
    for backend in (modx, modx_reference):
        context = backend.FieldContext(m)
        file = backend.RegisterFile(context, len(values))
        file.storex(0, b"".join(v.to_bytes(context.element_size, "big") for v in values))
        files.append(file)
    return files


def _registers(file) -> List[int]:
    return [file.internal(i) for i in range(file.count)]


MODULI = {"BLS12-381 p": P, "383 bits": 2**382 + P, "5 limbs": P >> 64 | 1,
          "7 limbs": (P << 64) + 1,
          # 4 limbs: Karatsuba below 2^254 (csrc/evmmax.c, fp2_product_256), op by op above
          "BN254 p": BN254.p, "2^254 - 1": 2**254 - 1, "2^254 + 1": 2**254 + 1,
          "secp256k1 p": SECP256K1.p}
KARATSUBA_4_LIMBS = ("BN254 p", "2^254 - 1")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(MODULI)), st.randoms(), st.booleans())
def test_native_runs_equal_the_reference(modulus_name, rng, aliasing):
    """The native kernels (Karatsuba where the context and values allow) and the
    pure-Python reference leave the same registers."""
    m = MODULI[modulus_name]
    values = [rng.randrange(m) for _ in range(REGISTERS)]
    operations = vgroup(**({"c1": RA1, "c0": RB0} if aliasing else {})) + V_KILL
    native, reference = _files(m, values)
    program = modx_common.VectorProgram(operations)
    native.run(program)
    reference.run(modx_reference.VectorProgram(operations))
    assert _registers(native) == _registers(reference)


def _wrongly_flagged_run(monkeypatch, m: int, values: List[int]):
    """The group flagged although t2 is read after it: the native registers, the
    reference's, and the native ones before the run."""
    monkeypatch.setattr(modx_common, "_written_before_read", lambda *args: True)
    operations = vgroup() + [one("add", RSPARE, RT2, RT2)]
    native, reference = _files(m, values)
    native.run(modx_common.VectorProgram(operations))
    reference.run(modx_reference.VectorProgram(operations))
    return _registers(native), _registers(reference), _registers(_files(m, values)[0])


@pytest.mark.parametrize("modulus_name", ["BLS12-381 p", *KARATSUBA_4_LIMBS])
def test_the_native_run_computes_karatsuba(monkeypatch, implementation, modulus_name):
    """Flagged wrongly (t2 is read after the group), the native run leaves t0, t1, t2
    alone where the reference computes them: the flagged path is the one that runs."""
    m = MODULI[modulus_name]
    rng = random.Random(2)
    got, expected, before = _wrongly_flagged_run(
        monkeypatch, m, [rng.randrange(m) for _ in range(REGISTERS)])
    for t in (RT0, RT1, RT2):
        assert got[t] == before[t] != expected[t]
    assert got[:RT0] + got[RT2 + 1:RSPARE] == expected[:RT0] + expected[RT2 + 1:RSPARE]


@pytest.mark.parametrize("modulus_name", ["2^254 + 1", "secp256k1 p"])
def test_a_4_limb_modulus_from_2_254_runs_op_by_op(monkeypatch, implementation,
                                                    modulus_name):
    """At 4 limbs the sums' product stays below m 2^256 only for m < 2^254: a wider
    modulus runs the six records, flagged or not (t2 then holds a0 b1 as the reference's)."""
    m = MODULI[modulus_name]
    rng = random.Random(3)
    got, expected, _ = _wrongly_flagged_run(
        monkeypatch, m, [rng.randrange(m) for _ in range(REGISTERS)])
    assert got == expected


@pytest.mark.parametrize("modulus_name", KARATSUBA_4_LIMBS)
@pytest.mark.parametrize("aliasing", [False, True])
def test_4_limb_karatsuba_at_the_largest_inputs(implementation, modulus_name, aliasing):
    """Inputs m - 1 and m - 2 (the unreduced sums at their largest) and zeros, on every
    implementation: the same registers as the reference."""
    m = MODULI[modulus_name]
    for a0, a1, b0, b1 in [(m - 1,) * 4, (m - 1, m - 2, m - 1, m - 2), (0, m - 1, m - 1, 0),
                           (0, 0, 0, 0), (1, m - 1, 1, m - 1)]:
        values = [a0, a1, b0, b1] + [5] * (REGISTERS - 4)
        operations = vgroup(**({"c1": RA1, "c0": RB0} if aliasing else {})) + V_KILL
        native, reference = _files(m, values)
        native.run(modx_common.VectorProgram(operations))
        reference.run(modx_reference.VectorProgram(operations))
        assert _registers(native) == _registers(reference)


# --- the cross shape: another non-residue (BLS12-377's u^2 = -5) ---------------------------

from evm384_native.evm.kernels.modx_common import FP2_CROSS_FLAG  # noqa: E402
from evm384_native.curves.bls12_377 import BLS12_377  # noqa: E402

RK = RSPARE                                  # the register holding beta (here any value)


def cross_group(t0=RT0, t1=RT1, t2=RT2, c1=RC1, c0=RC0) -> list:
    """tower.fp2.mul for beta != -1: the cross shape, then t1 = t1 beta, c0 = t0 + t1."""
    return vgroup(t0, t1, t2, c1, c0)[:5] + [one("mul", t1, t1, RK), one("add", c0, t0, t1)]


T2_KILL = [one("add", RT2, RA0, RA1)]


def flags(operations: list) -> List[Tuple[int, int]]:
    encoded = modx_common.VectorProgram(operations).encoded
    return [(i, encoded[8 * i] & (FP2_PRODUCT_FLAG | FP2_CROSS_FLAG))
            for i in range(len(operations)) if encoded[8 * i] & (FP2_PRODUCT_FLAG | FP2_CROSS_FLAG)]


def test_the_c_and_python_cross_flags_agree():
    assert lib.EVMMAX_FP2_CROSS_GROUP == FP2_CROSS_FLAG
    assert FP2_CROSS_FLAG & FP2_PRODUCT_FLAG == 0 and (FP2_CROSS_FLAG | 0x80) > 2


def test_a_cross_group_is_flagged_when_t2_is_written_before_it_is_read():
    """t0 and t1 are the step's results: the ops after the group may read them."""
    assert flags(cross_group() + T2_KILL) == [(0, FP2_CROSS_FLAG)]
    assert flags(V_KILL + cross_group() + T2_KILL) == [(3, FP2_CROSS_FLAG)]
    # -1's whole product where its temporaries are dead; its first five where only t2 is
    assert flags(vgroup() + V_KILL) == [(0, FP2_PRODUCT_FLAG)]
    assert flags(vgroup() + [one("add", RSPARE, RT0, RT1)] + T2_KILL) == [(0, FP2_CROSS_FLAG)]


@pytest.mark.parametrize("variant, operations", [
    ("t2 never written", cross_group()),
    ("t2 read first", cross_group() + [one("add", RSPARE, RT2, RA0)] + T2_KILL),
    ("t2 read and written by one op", cross_group() + [one("add", RT2, RT2, RA0)]),
    ("t0 is an input", cross_group(t0=RA1) + T2_KILL),
    ("t1 is an input", cross_group(t1=RB0) + T2_KILL),
    ("t2 is an input", cross_group(t2=RB1) + T2_KILL),
    ("c1 is t0", cross_group(c1=RT0) + T2_KILL),
    ("a vector of two", vgroup()[:4] + [("add", (RC1, 1, RC1, 1, RT2, 1, 2))] + T2_KILL),
    ("the sum of c1 and t1", vgroup()[:4] + [one("add", RC1, RC1, RT1)] + T2_KILL),
])
def test_cross_groups_that_are_not_proven_run_op_by_op(variant, operations):
    assert flags(operations) == [], variant


SIX_LIMBS = {"BLS12-377 p": BLS12_377.p, "BLS12-381 p": P, "383 bits": 2**382 + P}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(SIX_LIMBS) + ["BN254 p", "5 limbs", "7 limbs"]), st.randoms(),
       st.sampled_from([{}, {"c1": RA1}, {"c1": RB0, "c0": RA0}, {"c0": RB1}]))
def test_native_cross_runs_equal_the_reference(modulus_name, rng, aliasing):
    """The cross step (6 limbs, where the context and values allow) and the pure-Python
    reference leave the same registers; other sizes run the records."""
    m = {**MODULI, **SIX_LIMBS}[modulus_name]
    values = [rng.randrange(m) for _ in range(REGISTERS)]
    operations = cross_group(**aliasing) + T2_KILL
    assert [flag for _, flag in flags(operations)] == [FP2_CROSS_FLAG]
    native, reference = _files(m, values)
    native.run(modx_common.VectorProgram(operations))
    reference.run(modx_reference.VectorProgram(operations))
    assert _registers(native) == _registers(reference)


@pytest.mark.parametrize("modulus_name", sorted(SIX_LIMBS))
def test_cross_at_the_largest_and_smallest_inputs(implementation, modulus_name):
    m = SIX_LIMBS[modulus_name]
    for a0, a1, b0, b1 in [(m - 1,) * 4, (m - 1, m - 2, m - 1, m - 2), (0, m - 1, m - 1, 0),
                           (0, 0, 0, 0), (1, m - 1, 1, m - 1)]:
        values = [a0, a1, b0, b1] + [m - 5] * (REGISTERS - 4)
        native, reference = _files(m, values)
        operations = cross_group() + T2_KILL
        native.run(modx_common.VectorProgram(operations))
        reference.run(modx_reference.VectorProgram(operations))
        assert _registers(native) == _registers(reference)


@pytest.mark.parametrize("modulus_name", ["BLS12-377 p", "BLS12-381 p", "383 bits"])
def test_the_native_run_computes_the_cross_step(monkeypatch, implementation, modulus_name):
    """Flagged wrongly (t2 read after the group), the native run leaves t2 alone where the
    reference computes a0 b1 in it, and every other register as the reference: the flagged
    path is the one that runs, and it writes t0, t1 and c1. A modulus from 2^382 up runs
    the records (the unreduced sums' product would pass p 2^384)."""
    monkeypatch.setattr(modx_common, "_written_before_read", lambda *args: True)
    m = SIX_LIMBS[modulus_name]
    rng = random.Random(4)
    values = [rng.randrange(m) for _ in range(REGISTERS)]
    operations = cross_group() + [one("add", RSPARE, RT2, RT2)]
    native, reference = _files(m, values)
    native.run(modx_common.VectorProgram(operations))
    reference.run(modx_reference.VectorProgram(operations))
    got, expected = _registers(native), _registers(reference)
    before = _registers(_files(m, values)[0])
    if m >> 382:
        assert got == expected
        return
    assert got[RT2] == before[RT2] != expected[RT2]
    assert [v for i, v in enumerate(got) if i not in (RT2, RSPARE)] == \
        [v for i, v in enumerate(expected) if i not in (RT2, RSPARE)]


def test_bls12_377s_evmmax_check_runs_cross_steps():
    """The BLS12-377 EVMMAX pairing check's vector runs hold cross groups (the tower's Fp2
    products for u^2 = -5), and the check still says yes and no as the reference does."""
    from evm384_native.contracts import USAGE, build_contract as build
    from evm384_native.evm.api import execute as run
    from evm384_native.evm.fast_evmmax import VectorRuns
    from evm384_native.evm.opcode_sets import resolve_opcodes
    name = "bls12_377_pairing_check"
    code = build(name, target="evmmax")
    opcodes = resolve_opcodes("evmmax")
    analysis = decode(code, resolve_schedule("update5-A"), opcodes=opcodes)
    records = [ffi.buffer(program)[i][0] for program in VectorRuns(code, analysis.data_flags).programs
               for i in range(0, len(program), 8)]
    crosses = sum(1 for op in records if op & FP2_CROSS_FLAG)
    assert crosses > 100 and not any(op & FP2_PRODUCT_FLAG for op in records)
    usage = USAGE[name]
    for answer in (True, False):
        data = usage.example(random.Random(5), 2, answer)
        for engine in ("fast", "python"):
            result = run(code, data, engine=engine, opcodes="evmmax", gas=10**8)
            assert result.success and result.output[-1] == answer, (engine, answer)
