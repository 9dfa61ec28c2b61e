"""Plain EVM for fields wider than a word (issue 48): the two-word routines
(evm384_native/tower/two_words.py) against Python integers, the named-stack code they are
written with, and BLS12-381's contracts built for ``target="evm"`` against blst (pyblst), their
EVM384 builds, forged hints and both engines. The EIP-2537 contracts' vectors run on this
target in the peers' suites (tests/test_eest_vectors.py, tests/test_geth_vectors.py)."""
import random
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.asm import Assembler
from evm384_native.bls12_381 import build_contract, encode_calldata, pairing_hint
from evm384_native.bls12_381.oracle import (blst_product_is_one, encode_pairs, g1_point,
                                            g2_point, random_product_case)
from evm384_native.contracts import BUILT_FOR
from evm384_native.curves import BLS12_381
from evm384_native.curves.bls12_377 import BLS12_377
from evm384_native.tower import two_words
from evm384_native.tower.contract import CONTRACT_SIZE_LIMIT
from evm384_native.tower.named_stack import NamedStack
from evm384_native.tower.target_words import WIDE, Words

R = 1 << 512
# BLS12-381's and BLS12-377's p, an odd 257-bit number and a 384-bit one (not primes: the
# routines need only an odd p, as Montgomery's reduction does)
MODULI = [BLS12_381.p, BLS12_377.p, (1 << 256) + 1, (1 << 384) - 317]
ONE, ZERO = (1).to_bytes(32, "big"), bytes(32)
REFERENCE = {"add": lambda x, y, p: (x + y) % p, "sub": lambda x, y, p: (x - y) % p,
             "mul": lambda x, y, p: x * y * pow(R, -1, p) % p}


@lru_cache(maxsize=None)
def routine_program(kind: str, p: int) -> bytes:
    """x at 0, y at 48 (calldata), the routine's result at 96 returned."""
    asm = Assembler("routine", opcodes="evm")
    asm.push(96); asm.push(0); asm.push(0); asm.op("CALLDATACOPY")
    back, routine = asm.new_label("back"), asm.new_label("routine")
    asm.push(back); asm.push(96); asm.push(48); asm.push(0)
    asm.jump(routine)
    asm.place(back)
    asm.push(48); asm.push(96); asm.op("RETURN")
    asm.place(routine)
    getattr(two_words, f"emit_{kind}")(asm, p)
    asm.op("JUMP")
    return asm.assemble().code


def routine(kind: str, p: int, x: int, y: int, engine: str = "fast") -> int:
    result = execute(routine_program(kind, p), x.to_bytes(48, "big") + y.to_bytes(48, "big"),
                     opcodes="evm", engine=engine)
    assert result.success, result.error
    return int.from_bytes(result.output, "big")


def edges(p: int) -> list:
    return [0, 1, 2, p - 1, p - 2, (1 << 256) - 1, 1 << 256, p >> 1, (p + 1) >> 1]


@pytest.mark.parametrize("p", MODULI, ids=lambda p: f"{p.bit_length()}bits")
@pytest.mark.parametrize("kind", ["add", "sub", "mul"])
def test_routines_on_edge_values(kind, p):
    values = [v for v in edges(p) if v < p]
    for x in values:
        for y in values:
            assert routine(kind, p, x, y) == REFERENCE[kind](x, y, p), (kind, x, y)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MODULI), st.sampled_from(["add", "sub", "mul"]), st.data())
def test_routines_against_python_integers(p, kind, data):
    x = data.draw(st.integers(0, p - 1))
    y = data.draw(st.integers(0, p - 1))
    assert routine(kind, p, x, y) == REFERENCE[kind](x, y, p)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(MODULI), st.integers(0, (1 << 384) - 1), st.integers(0, (1 << 384) - 1))
def test_the_product_takes_unreduced_inputs_and_answers_canonically(p, x, y):
    """A plain value not yet reduced (below 2^384) meets the product by R^2 when it is
    converted: the result is still canonical."""
    assert routine("mul", p, x, y) == REFERENCE["mul"](x, y, p)


def test_both_engines_agree_on_the_routines():
    rng = random.Random(5)
    for kind in ("add", "sub", "mul"):
        program = routine_program(kind, BLS12_381.p)
        for _ in range(5):
            data = b"".join(rng.randrange(BLS12_381.p).to_bytes(48, "big") for _ in range(2))
            fast, slow = (execute(program, data, opcodes="evm", engine=engine)
                          for engine in ("fast", "python"))
            assert (fast.output, fast.gas_used, fast.steps) == (slow.output, slow.gas_used,
                                                                slow.steps)


@pytest.mark.parametrize("p", [BLS12_381.p + 1, 1 << 256, (1 << 255) - 19, 1 << 384])
def test_routines_refuse_moduli_they_cannot_take(p):
    with pytest.raises(ValueError, match="odd p of 257 to 384 bits"):
        two_words.emit_mul(Assembler("routine", opcodes="evm"), p)


# --- the named stack --------------------------------------------------------------------

def run_stack(build) -> list:
    """Run code that leaves words on the stack, returning them (bottom first)."""
    asm = Assembler("stack", opcodes="evm")
    names = build(asm)
    for i in range(len(names)):
        asm.push(32 * i)
        asm.op("MSTORE")                             # the top first, to the last word
    asm.push(32 * len(names)); asm.push(0); asm.op("RETURN")
    output = execute(asm.assemble().code, b"", opcodes="evm").output
    return [int.from_bytes(output[i:i + 32], "big") for i in range(0, len(output), 32)][::-1]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 16).flatmap(lambda n: st.permutations(range(n))))
def test_order_arranges_any_permutation_with_swaps(permutation):
    names = [f"v{i}" for i in range(len(permutation))]

    def build(asm):
        s = NamedStack(asm)
        for i, name in enumerate(names):
            s.push(100 + i, name)
        s.order(*[names[i] for i in permutation])
        return s.names
    assert run_stack(build) == [100 + i for i in permutation]


def test_apply_computes_with_copies_and_consumes_what_it_is_told():
    names = []

    def build(asm):
        s = NamedStack(asm)
        s.push(7, "a")
        s.push(100, "b")
        s.apply("SUB", ["b", "a"], "d")              # d = b - a
        s.apply("MUL", ["d", "a"], "m", consume=["d"])
        s.apply("SUB", ["a", "m"], "e", consume=["a"])   # 7 - 651 wraps
        names.extend(s.names)
        return s.names
    stack = run_stack(build)
    values = dict(zip(names, stack))
    assert sorted(names) == ["b", "e", "m"]
    assert values == {"b": 100, "m": 651, "e": (7 - 651) % (1 << 256)}


def test_a_value_out_of_reach_is_an_error_when_the_code_is_written():
    s = NamedStack(Assembler("stack", opcodes="evm"), [f"v{i}" for i in range(17)])
    with pytest.raises(ValueError, match="'v0' is 17 values down: EVM reaches 16"):
        s.dup("v0", "copy")


# --- the target ---------------------------------------------------------------------------

def test_plain_evm_is_one_target_name_whatever_the_field():
    assert Words().for_field(BLS12_381) is WIDE
    assert WIDE.name == "evm" and WIDE.opcodes == "evm"
    from evm384_native.curves.bn254 import BN254
    target = Words()
    assert target.for_field(BN254) is target


def test_every_bls12_381_build_for_plain_evm_fits():
    built = [name for name in BUILT_FOR["evm"] if name.startswith(("pairing", "eip2537"))]
    assert len(built) == 10
    for name in built:
        assert len(build_contract(name, target="evm")) <= CONTRACT_SIZE_LIMIT, name


# --- BLS12-381's pairing checks -----------------------------------------------------------

@lru_cache(maxsize=None)
def instance(k, true, seed=0):
    return tuple(random_product_case(random.Random(700 + 10 * k + true + 100 * seed), k, true))


def check(name, pairs, hint=None, target="evm", engine="fast"):
    args = (encode_pairs(pairs),) if hint is None else (encode_pairs(pairs), hint)
    return execute(build_contract(name, target=target), encode_calldata(name, *args),
                   opcodes=target, engine=engine, gas=1 << 30)


@pytest.mark.parametrize("k,true", [(1, False), (2, True), (2, False), (3, True), (3, False)])
def test_pairing_checks_answer_as_blst(k, true):
    pairs = instance(k, true)
    assert blst_product_is_one(*zip(*pairs)) is true
    for name in ("pairing_product_is_one", "pairing_check_hinted"):
        hint = pairing_hint(encode_pairs(pairs)) if name == "pairing_check_hinted" else None
        result = check(name, pairs, hint)
        assert result.success and result.output == (ONE if true else ZERO), (name, k, true)
        reference = check(name, pairs, hint, target="evm384")
        assert reference.output == result.output


def test_pairs_at_infinity_are_skipped():
    pairs = list(instance(2, True))
    infinity = [((0, 0), ((0, 0), (0, 0)))]
    assert check("pairing_product_is_one", pairs + infinity).output == ONE
    encoded = encode_pairs(pairs) + [(bytes(96), bytes(192))]
    result = execute(build_contract("pairing_product_is_one", target="evm"),
                     encode_calldata("pairing_product_is_one", encoded), opcodes="evm",
                     gas=1 << 30)
    assert result.output == ONE


def test_forged_hints_are_rejected():
    pairs = instance(2, True)
    honest = pairing_hint(encode_pairs(pairs))
    values = [int.from_bytes(honest[i:i + 48], "big") for i in range(0, 288, 48)]
    other = pairing_hint(encode_pairs(instance(2, True, seed=1)))
    shifted = b"".join(((v + 1) % BLS12_381.p).to_bytes(48, "big") for v in values)
    for forged in (other, shifted, bytes(288)):
        result = check("pairing_check_hinted", pairs, forged)
        assert result.success and result.output == ZERO
    not_below_p = b"".join(v.to_bytes(48, "big") for v in values[:3] + [values[3] + BLS12_381.p]
                           + values[4:])
    result = check("pairing_check_hinted", pairs, not_below_p)
    assert not result.success and result.error == "revert"


def test_a_pair_of_other_points_changes_the_answer():
    p, q = g1_point(5), g2_point(7)
    pairs = [(p, q), (g1_point(35), g2_point(1))]       # e(5G, 7H) e(35G, H) != 1
    assert not blst_product_is_one(*zip(*pairs))
    assert check("pairing_product_is_one", pairs).output == ZERO


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pairing_product_is_one", "pairing_check_hinted"])
def test_engines_agree_on_the_pairing_checks(name):
    pairs = instance(2, True)
    hint = pairing_hint(encode_pairs(pairs)) if name == "pairing_check_hinted" else None
    fast, slow = (check(name, pairs, hint, engine=engine) for engine in ("fast", "python"))
    assert (fast.output, fast.gas_used, fast.steps) == (slow.output, slow.gas_used, slow.steps)
    assert fast.output == ONE
