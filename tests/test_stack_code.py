"""The plain-EVM target's block compiler (evm384_native/tower/stack_code.py) against Python
integers: random blocks of modular operations (copies, aliasing, constants, immediates
set in the block, cycles of
moves, more live values than DUP reaches) compiled, run on both engines, and the memory
they leave compared word by word with the same operations done in Python."""
import itertools
import random
from unittest import mock

import pytest
from hypothesis import example, given, settings, strategies as st

from evm384_native import execute
from evm384_native.tower.target_words import headroom as headroom_of
from evm384_native.tower import stack_code
from evm384_native.tower.stack_code import (BlockMemory, BlockTooLarge, FieldOp,
                                            compile_block, push_bytes)

P_BN254 = 0x30644E72E131A029B85045B68181585D97816D68719D2B6A9ABE2DA24E7B1F5B
P_256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
MODULI = (P_BN254, P_256, 2**255 - 19, 7)       # headroom 5, 1, 2, 8 (unreduced sums)
MODULUS_AT, SCRATCH_AT, SCRATCH_WORDS = 0, 256, 64
FIRST = SCRATCH_AT + 32 * SCRATCH_WORDS             # the block's words start here


def _simulate(ops, words, p):
    """The words after ``ops``; a killed word (dead: its value may be anything) is None."""
    words = dict(words)
    for op in ops:
        if op.op == "kill":
            words[op.out] = None
            continue
        if op.op == "set":
            words[op.out] = op.x
            continue
        x, y = words[op.x], words[op.y]
        words[op.out] = {"add": (x + y) % p, "sub": (x - y) % p, "mul": x * y % p,
                         "copy": x}[op.op]
    return words


def _program(ops, words, p, dead=frozenset(), constants=None, pushed=False):
    """Memory set up (p's multiples that fit a word, up to 8, the words), the block, then
    the words returned; ``pushed``: the block pushes its constants and multiples of p
    (BlockMemory's ``modulus``), else loads them."""
    code = bytearray()
    headroom = headroom_of(p)
    multiples = [(MODULUS_AT + 32 * (k - 1), k * p) for k in range(1, headroom + 1)]
    for address, value in [*multiples, *words.items()]:
        code += push_bytes(value) + push_bytes(address) + bytes([0x52])
    memory = BlockMemory(MODULUS_AT, constants or {}, SCRATCH_AT, SCRATCH_WORDS, dead,
                         headroom, p if pushed else None)
    for _, blob in compile_block(ops, memory):
        code += blob
    size = 32 * len(words)
    code += push_bytes(size) + push_bytes(FIRST) + bytes([0xF3])
    return bytes(code)


def _run_and_compare(ops, words, p, dead=frozenset(), constants=None):
    """Both engines, the block's constants loaded and pushed, each choice of signs and
    each of the settings the compiler tries (not only the one it keeps); the run with
    loads, the compiler's own."""
    expected = _simulate(ops, words, p)
    choices = ([("SIGNS", {name: kinds}) for name, kinds in stack_code.SIGNS.items()]
               + [("SETTINGS", (settings,)) for settings in stack_code.SETTINGS]
               + [("SIGNS", stack_code.SIGNS)])
    for (name, only), pushed in itertools.product(choices, (True, False)):
        with mock.patch.object(stack_code, name, only):
            code = _program(ops, words, p, dead, constants, pushed)
        for engine in ("python", "fast"):
            result = execute(code, b"", opcodes="evm", engine=engine)
            assert result.success, result.error
            got = {FIRST + 32 * i: int.from_bytes(result.output[32 * i:32 * i + 32], "big")
                   for i in range(len(words))}
            for address in words:
                if address not in dead and expected[address] is not None:
                    assert got[address] == expected[address], (engine, pushed, only, address)
    return result


def _words(rng, count, p, constants=()):
    words = {FIRST + 32 * i: rng.randrange(p) for i in range(count)}
    for i, value in constants:
        words[FIRST + 32 * i] = value
    return words


@st.composite
def blocks(draw):
    p = draw(st.sampled_from(MODULI))
    count = draw(st.integers(2, 24))
    n_ops = draw(st.integers(1, 80))
    ops = []
    killed = set()
    for _ in range(n_ops):
        kind = draw(st.sampled_from(["add", "sub", "mul", "mul", "copy", "kill", "set"]))
        out, x, y = (FIRST + 32 * draw(st.integers(0, count - 1)) for _ in range(3))
        if kind == "set":                          # an immediate: 0, 1 (folds) or any
            value = draw(st.sampled_from([0, 1, p - 1, None]))
            x = y = value if value is not None else draw(st.integers(0, p - 1))
        elif kind != "kill" and {x, y} & killed:   # a dead word is not read
            continue
        if kind == "kill":
            killed.add(out)
        else:
            killed.discard(out)
        ops.append(FieldOp(kind, out, x, y if kind in ("add", "sub", "mul") else x, ()))
    seed = draw(st.integers(0, 2**32))
    return p, count, ops, seed


@settings(max_examples=60, deadline=None)
@given(blocks())
def test_random_blocks_compute_what_python_does(block):
    p, count, ops, seed = block
    rng = random.Random(seed)
    _run_and_compare(ops, _words(rng, count, p), p)


@settings(max_examples=30, deadline=None)
@given(blocks(), st.data())
def test_constants_and_dead_words(block, data):
    """Words declared constant are pushed (small) or loaded (large) and never written;
    dead words' last values need not be stored (the others still are)."""
    p, count, ops, seed = block
    rng = random.Random(seed)
    consts = {0: 0, 1: 1, 2: rng.randrange(p)}
    constants = {FIRST + 32 * i: v % p for i, v in consts.items() if i < count}
    ops = [op for op in ops if op.out not in constants]
    dead = frozenset(FIRST + 32 * i for i in range(count)
                     if data.draw(st.booleans()) and FIRST + 32 * i not in constants)
    words = _words(rng, count, p, [(i, v % p) for i, v in consts.items() if i < count])
    _run_and_compare(ops, words, p, dead, constants)


@st.composite
def dense_blocks(draw):
    """Short blocks over two to five words: most values are read several times and for
    the last time inside other operations' trees (the compiler then swaps a value up
    instead of copying it, with the tree's copies of p pushed under it)."""
    p = draw(st.sampled_from(MODULI))
    count = draw(st.integers(2, 5))
    word = st.integers(0, count - 1).map(lambda i: FIRST + 32 * i)
    ops = draw(st.lists(st.builds(lambda kind, out, x, y: FieldOp(kind, out, x, y, ()),
                                  st.sampled_from(["add", "sub", "sub", "mul", "mul"]),
                                  word, word, word), min_size=1, max_size=16))
    return p, count, ops, draw(st.integers(0, 2**32))


@settings(max_examples=80, deadline=None)
@given(dense_blocks())
# x - x of a tree read once: the tree is computed twice, so its first value is copied
@example((P_256, 4, [FieldOp("sub", FIRST + 32, FIRST, FIRST + 96, ()),
                     FieldOp("add", FIRST + 96, FIRST + 64, FIRST + 32, ()),
                     FieldOp("sub", FIRST + 96, FIRST + 96, FIRST + 96, ())], 0))
def test_values_read_last_inside_trees(block):
    p, count, ops, seed = block
    _run_and_compare(ops, _words(random.Random(seed), count, p), p)


def _doublings():
    """Five doublings (BN254's halved formula, the shape of bn254_mul's loop) and their
    input words."""
    x, y, z, c, m, s, b = (FIRST + 32 * i for i in range(7))
    doubling = [("mul", m, x, x), ("mul", m, m, c), ("mul", b, y, y), ("mul", z, y, z),
                ("mul", s, x, b), ("mul", b, b, b), ("mul", x, m, m), ("sub", x, x, s),
                ("sub", x, x, s), ("sub", y, s, x), ("mul", y, y, m), ("sub", y, y, b),
                ("kill", m, m, m), ("kill", s, s, s), ("kill", b, b, b)]
    return ([FieldOp(kind, out, a, d, ()) for kind, out, a, d in doubling] * 5,
            {x: 5, y: 7, z: 1, c: 3})


def _gas_without(method, ops, words, p, nothing=None):
    """The gas of the block compiled, beside its gas with the compiler's ``method``
    doing nothing (returning ``nothing``)."""
    stack_code._compile_cached.cache_clear()
    with_it = _run_and_compare(ops, words, p).gas_used
    stack_code._compile_cached.cache_clear()                  # the same block, again
    with mock.patch.object(stack_code._Compiler, method, lambda *_: nothing):
        without = _run_and_compare(ops, words, p).gas_used
    stack_code._compile_cached.cache_clear()
    return with_it, without


def test_a_value_read_last_is_swapped_up_not_copied():
    """The values each doubling reads last are taken from the stack by a SWAP where a
    copy and a dead slot to remove would cost more, so the block costs less than with
    every read copied."""
    ops, words = _doublings()
    for p in (P_BN254, P_256):
        taken, copied = _gas_without("_take_first", ops, words, p)
        assert taken < copied, (p, taken, copied)


def test_spare_copies_of_p_save_the_swaps_under_values_taken():
    """A copy of p pushed under a root where the next root takes a value (or reads that
    root in place) with p under it saves the SWAP that put p there: the doublings cost
    less with spares than without."""
    ops, words = _doublings()
    for p in (P_BN254, P_256):
        spared, unspared = _gas_without("_spares", ops, words, p, 0)
        assert spared < unspared, (p, spared, unspared)


def test_spares_in_dense_blocks():
    """Random blocks of many products over few words, where roots often take values and
    one or several spares are pushed under a root for the next ones (and some die
    unused, where a prediction fails): the words are Python's."""
    pushed = []
    spares = stack_code._Compiler._spares

    def counted(compiler, i):
        pushed.append(spares(compiler, i))
        return pushed[-1]

    rng = random.Random(48)
    stack_code._compile_cached.cache_clear()
    with mock.patch.object(stack_code._Compiler, "_spares", counted):
        for _ in range(40):
            p = rng.choice((P_256, P_BN254))
            count = rng.randint(3, 6)
            ops = [FieldOp(rng.choice(["add", "sub", "mul", "mul", "mul"]),
                           *(FIRST + 32 * rng.randrange(count) for _ in range(3)), ())
                   for _ in range(40)]
            _run_and_compare(ops, _words(rng, count, p), p)
    stack_code._compile_cached.cache_clear()
    assert 1 in pushed and max(pushed) >= 2, "the blocks exercise one spare and several"


def test_unreduced_sums_stay_below_the_headroom():
    """Long chains of additions and subtractions of one value with itself and others: the
    compiler leaves sums unreduced only while they stay below headroom * p < 2^256, and
    stores canonical values."""
    for p in MODULI:
        rng = random.Random(p)
        a, b, c = (FIRST + 32 * i for i in range(3))
        ops = [FieldOp("add", a, a, a, ()), FieldOp("sub", b, b, a, ()),
               FieldOp("add", a, a, b, ()), FieldOp("sub", c, a, b, ()),
               FieldOp("sub", b, c, c, ()), FieldOp("add", c, c, a, ()),
               FieldOp("sub", a, FIRST + 96, c, ()), FieldOp("mul", b, a, c, ())] * 4
        words = {a: p - 1, b: p - 2, c: rng.randrange(p), FIRST + 96: 0}
        _run_and_compare(ops, words, p)


def test_folds_and_negation_of_zero():
    """x + 0, 0 + x, x * 1 fold away; 0 - x is (p - x) mod p, so -0 is 0."""
    p = P_BN254
    zero, one, a, b = (FIRST + 32 * i for i in range(4))
    ops = [FieldOp("sub", a, zero, a, ()), FieldOp("sub", b, zero, b, ()),
           FieldOp("add", a, a, zero, ()), FieldOp("mul", b, one, b, ())]
    _run_and_compare(ops, {zero: 0, one: 1, a: 0, b: 5}, p, constants={zero: 0, one: 1})


def test_cycle_of_moves():
    """A rotation of three words by copies: each store must not clobber a word still read."""
    a, b, c = (FIRST + 32 * i for i in range(3))
    ops = [FieldOp("copy", FIRST + 96, a, a, ()), FieldOp("copy", a, b, b, ()),
           FieldOp("copy", b, c, c, ()), FieldOp("copy", c, FIRST + 96, FIRST + 96, ())]
    _run_and_compare(ops, {a: 1, b: 2, c: 3, FIRST + 96: 4}, P_256)


def test_many_live_values_spill_to_scratch():
    """30 products all live until a final sum: more than DUP reaches, so some go to scratch
    and come back."""
    p, rng = P_256, random.Random(5)
    inputs = [FIRST + 32 * i for i in range(30)]
    temps = [FIRST + 32 * (30 + i) for i in range(30)]
    ops = [FieldOp("mul", t, x, x, ()) for t, x in zip(temps, inputs)]
    ops += [FieldOp("add", temps[0], temps[0], t, ()) for t in temps[1:]]
    ops += [FieldOp("mul", inputs[0], temps[0], temps[i], ()) for i in range(1, 30, 7)]
    words = {address: rng.randrange(p) for address in inputs + temps}
    _run_and_compare(ops, words, p)


def test_chains_of_products_stay_on_the_stack():
    """A chain of squarings is a few trees: 14 gas a squaring (DUP the modulus, DUP1,
    MULMOD), a DUP and a POP between trees, one load and one store for the whole chain
    (where one load and store a squaring would be ~31)."""
    p, x = P_BN254, FIRST
    ops = [FieldOp("mul", x, x, x, ())] * 100
    result = _run_and_compare(ops, {x: 3}, p)
    setup = execute(_program([], {x: 3}, p), b"", opcodes="evm").gas_used
    assert result.gas_used - setup < 100 * 16 + 20


def test_too_many_spills_is_a_clear_error():
    inputs = [FIRST + 32 * i for i in range(120)]
    temps = [FIRST + 32 * (120 + i) for i in range(120)]
    ops = [FieldOp("mul", t, x, x, ()) for t, x in zip(temps, inputs)]
    ops += [FieldOp("add", temps[0], temps[0], t, ()) for t in reversed(temps[1:])]
    with pytest.raises(BlockTooLarge, match="scratch words"):
        compile_block(ops, BlockMemory(MODULUS_AT, {}, SCRATCH_AT, 4))


def test_known_modulus_pushes_constants_and_multiples():
    """With the modulus known as the code is written, a large constant and k p (BN254's
    lazy subtraction of a sum) are PUSH32s in the code, not loads; without it, loads."""
    p = P_BN254
    c, a, b = (FIRST + 32 * i for i in range(3))
    constant = p - 12345
    ops = [FieldOp("add", b, b, b, ()), FieldOp("sub", a, a, b, ()),
           FieldOp("mul", a, a, c, ())]
    words = {c: constant, a: 5, b: 7}
    _run_and_compare(ops, words, p, constants={c: constant})
    for pushed in (True, False):
        memory = BlockMemory(MODULUS_AT, {c: constant}, SCRATCH_AT, SCRATCH_WORDS,
                             headroom=headroom_of(p), modulus=p if pushed else None)
        code = b"".join(blob for _, blob in compile_block(ops, memory))
        for value in (constant, 2 * p):
            assert (push_bytes(value) in code) == pushed, (pushed, value)


def _roots_in_order(ops, settings, p=P_256):
    """The roots of ``ops`` in the order the compiler makes them with ``settings``, and
    the roots each one's tree reads."""
    memory = BlockMemory(MODULUS_AT, {}, SCRATCH_AT, SCRATCH_WORDS, headroom=headroom_of(p),
                         modulus=p)
    compiler = stack_code._Compiler(memory, (), settings)
    compiler.dataflow(ops)
    roots = compiler._plan()
    return roots, {root: set(compiler._leaves(root)) & set(roots) for root in roots}


def test_kills_first_order_reads_operands_made_and_frees_values_early():
    """The "kills" order makes each root after the roots it reads, and, where two are
    ready, first the one that reads more roots for the last time: here c = a b (the b
    made here read last) before d = a a (reads nothing last: a is read by c too), where
    the block's order is d, c."""
    a, b, c, d = (FIRST + 32 * i for i in range(4))
    ops = [FieldOp("mul", a, a, a, ()), FieldOp("mul", b, b, b, ()),
           FieldOp("mul", d, a, a, ()), FieldOp("mul", c, a, b, ()),
           FieldOp("add", a, c, d, ())]
    program, _ = _roots_in_order(ops, stack_code.Settings())
    kills, reads = _roots_in_order(ops, stack_code.Settings(order="kills"))
    assert sorted(kills) == program
    assert program[2:4] != kills[2:4] and kills[2:4] == program[3:1:-1]
    for position, root in enumerate(kills):
        assert reads[root] <= set(kills[:position]), (root, kills)
    rng = random.Random(49)
    for _ in range(30):                          # dense blocks: an order the operands allow
        count = rng.randint(3, 6)
        ops = [FieldOp(rng.choice(["add", "sub", "mul"]),
                       *(FIRST + 32 * rng.randrange(count) for _ in range(3)), ())
               for _ in range(30)]
        kills, reads = _roots_in_order(ops, stack_code.Settings(order="kills"))
        assert sorted(kills) == _roots_in_order(ops, stack_code.Settings())[0]
        for position, root in enumerate(kills):
            assert reads[root] <= set(kills[:position]), (root, kills)


def test_the_cheapest_of_the_settings_is_kept():
    """Each block's code is the cheapest of its code under each of SETTINGS (and on some
    of these dense blocks cheaper than under the first, the compiler's defaults)."""
    rng = random.Random(50)
    cheaper = 0
    for _ in range(12):
        p = rng.choice((P_256, P_BN254))
        count = rng.randint(4, 8)
        ops = tuple(FieldOp(rng.choice(["add", "sub", "mul", "mul"]),
                            *(FIRST + 32 * rng.randrange(count) for _ in range(3)), ())
                    for _ in range(60))
        memory = BlockMemory(MODULUS_AT, {}, SCRATCH_AT, SCRATCH_WORDS,
                             headroom=headroom_of(p), modulus=p)
        gas = {}
        for settings in (*stack_code.SETTINGS, None):
            stack_code._compile_cached.cache_clear()
            only = (settings,) if settings else stack_code.SETTINGS
            with mock.patch.object(stack_code, "SETTINGS", only):
                code = b"".join(blob for _, blob in compile_block(ops, memory))
            gas[settings] = stack_code.code_gas(code)
        chosen = gas.pop(None)
        assert chosen == min(gas.values())
        cheaper += chosen < gas[stack_code.Settings()]
    stack_code._compile_cached.cache_clear()
    assert cheaper, "no block is cheaper than under the defaults"


def test_spares_pushed_with_the_copies_of_p_a_take_needs():
    """A root that takes a value pushes the spares the roots after it will use with the
    copies of p under the value (a DUP1 each, where a spare pushed later would cost a DUP
    and a SWAP): some of these dense blocks cost less so, and all keep Python's words."""
    pushed = []
    take_spares = stack_code._Compiler._take_spares

    def counted(compiler, i, root, missing):
        pushed.append(take_spares(compiler, i, root, missing))
        return pushed[-1]

    def gas(ops, memory):
        stack_code._compile_cached.cache_clear()
        return stack_code.code_gas(b"".join(blob for _, blob in compile_block(ops, memory)))

    rng = random.Random(51)
    cheaper = 0
    for _ in range(20):
        p = rng.choice((P_256, P_BN254))
        count = rng.randint(3, 6)
        ops = [FieldOp(rng.choice(["add", "sub", "mul", "mul", "mul"]),
                       *(FIRST + 32 * rng.randrange(count) for _ in range(3)), ())
               for _ in range(40)]
        memory = BlockMemory(MODULUS_AT, {}, SCRATCH_AT, SCRATCH_WORDS,
                             headroom=headroom_of(p), modulus=p)
        with mock.patch.object(stack_code._Compiler, "_take_spares", lambda *_: 0):
            without = gas(ops, memory)
        cheaper += gas(ops, memory) < without
        stack_code._compile_cached.cache_clear()
        with mock.patch.object(stack_code._Compiler, "_take_spares", counted):
            _run_and_compare(ops, _words(rng, count, p), p)
    stack_code._compile_cached.cache_clear()
    assert cheaper and max(pushed) >= 1, (cheaper, max(pushed))
