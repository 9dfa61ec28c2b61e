"""The project's field kernels beside blst's, in one process: throughput and latency.

    BLST_KERNELS_LIB=/path/to/libblst_kernels.so \\
        python -m pytest bench/test_bench_blst_kernels.py --benchmark-json=/tmp/blst_kernels.json
    python bench/report.py /tmp/blst_kernels.json

``BLST_KERNELS_LIB`` names a shared library, built by you from blst's sources
(``bench/blst_kernels.sh``), that exports blst's own ``mulx_mont_384``, ``mul_mont_384`` (its
MULQ code), ``add_mod_384``, ``sub_mod_384`` and ``mulx_mont_sparse_256`` (blst's C
signatures; they are internal, hidden symbols in a normal blst build). Without it only the
project's kernels are timed (ratios to the first of them); a path that is not a file skips
with the reason. Nothing of blst is in this repository.

The comparisons:
- the EVM384 kernels (6 limbs, BLS12-381's p): the MULX product against ``mulx_mont_384``,
  ADDMOD384/SUBMOD384 against ``add_mod_384``/``sub_mod_384``;
- the portable C product (the only one on aarch64 and on x86-64 without ADX) against
  ``mul_mont_384``, blst's code for x86-64 without ADX;
- the EVMMAX 4-limb MULMODX element kernel (MULX/ADX and portable) against
  ``mulx_mont_sparse_256``, on BN254's base field p. blst's 256-bit code wants a "sparse"
  modulus, one whose top limb is not all ones (at most 2^256 - 2^192 - 1, its comments say):
  BN254's p (top limb 0x30644e72e131a029) is one, secp256k1's p (top limb all ones) is not.

Each round runs every contender once, in turn (each round starting with the next one, so
that none always runs first), in two shapes over ROWS rows:
- throughput: out[i] = x[i] op y[i], independent rows;
- latency (dependent chain): acc = acc op y[i], each operation waiting for the previous one,
  through memory (row i + 1 is written from row i), as in the engines, where every EVM384
  operand lives in EVM memory and every EVMMAX one in its register file.
blst's functions are called through a function pointer from a loop compiled at bench time
(cffi); the project's EVM384 kernels through its own batch loops (the Montgomery product
through a function pointer as well, additions inlined as in the engines), the EVMMAX element
kernel through a pointer from ``evmmax_element_kernel`` and a loop compiled here, as the
engines call it.
"""
from __future__ import annotations

import os
import random
import time
from typing import Callable, Dict, List

import numpy as np
import pytest

from evm384_native.evm.kernels import kernel, modx
from evm384_native._native import ffi as native_ffi
from evm384_native._native import lib as native_lib
from evm384_native.evm.kernels.montgomery import montgomery_inv

import interleaved  # bench/interleaved.py

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
BN254_P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47
ROWS = 5_000  # short rounds: fewer of them preempted on a shared machine
LIB_VARIABLE = "BLST_KERNELS_LIB"

LOOP_DECLARATIONS = """
typedef void blst_mul_fn(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *,
                         uint64_t);
typedef void blst_add_fn(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *);
void mul_rows(blst_mul_fn *mul, uint64_t *out, const uint64_t *x, const uint64_t *y,
              size_t n, const uint64_t *mod, uint64_t inv);
void add_rows(blst_add_fn *add, uint64_t *out, const uint64_t *x, const uint64_t *y,
              size_t n, const uint64_t *mod);
void mul4_rows(blst_mul_fn *mul, uint64_t *out, const uint64_t *x, const uint64_t *y,
               size_t n, const uint64_t *mod, uint64_t inv);
typedef void element_fn(uint64_t *, const uint64_t *, const uint64_t *, const void *);
void element4_rows(element_fn *mul, uint64_t *out, const uint64_t *x, const uint64_t *y,
                   size_t n, const void *ctx);
"""
# The same row loops as the project's evm384_*_batch (and, at 4 limbs, as the EVMMAX
# engines'), around a function pointer.
LOOP_SOURCE = """
#include <stddef.h>
#include <stdint.h>
typedef void blst_mul_fn(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *,
                         uint64_t);
typedef void blst_add_fn(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *);

void mul_rows(blst_mul_fn *mul, uint64_t *out, const uint64_t *x, const uint64_t *y,
              size_t n, const uint64_t *mod, uint64_t inv)
{
    for (size_t i = 0; i < n; i++)
        mul(out + 6 * i, x + 6 * i, y + 6 * i, mod, inv);
}

void add_rows(blst_add_fn *add, uint64_t *out, const uint64_t *x, const uint64_t *y,
              size_t n, const uint64_t *mod)
{
    for (size_t i = 0; i < n; i++)
        add(out + 6 * i, x + 6 * i, y + 6 * i, mod);
}

void mul4_rows(blst_mul_fn *mul, uint64_t *out, const uint64_t *x, const uint64_t *y,
               size_t n, const uint64_t *mod, uint64_t inv)
{
    for (size_t i = 0; i < n; i++)
        mul(out + 4 * i, x + 4 * i, y + 4 * i, mod, inv);
}

/* The EVMMAX element kernels' signature, the context opaque. */
typedef void element_fn(uint64_t *, const uint64_t *, const uint64_t *, const void *);

void element4_rows(element_fn *mul, uint64_t *out, const uint64_t *x, const uint64_t *y,
                   size_t n, const void *ctx)
{
    for (size_t i = 0; i < n; i++)
        mul(out + 4 * i, x + 4 * i, y + 4 * i, ctx);
}
"""


def _build_loops(directory: str):
    """Compile LOOP_SOURCE (only this file's code) into ``directory`` and import it."""
    import importlib.util

    from cffi import FFI

    builder = FFI()
    builder.cdef(LOOP_DECLARATIONS)
    builder.set_source("_blst_bench_loops", LOOP_SOURCE, extra_compile_args=["-O2"])
    library_path = builder.compile(tmpdir=directory)
    spec = importlib.util.spec_from_file_location("_blst_bench_loops", library_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    """The row loops of LOOP_SOURCE, compiled for this run."""
    return _build_loops(str(tmp_path_factory.mktemp("blst_loops")))


BLST_KINDS = {"mulx_mont_384": "blst_mul_fn *", "mul_mont_384": "blst_mul_fn *",
              "add_mod_384": "blst_add_fn *", "sub_mod_384": "blst_add_fn *",
              "mulx_mont_sparse_256": "blst_mul_fn *"}


@pytest.fixture(scope="module")
def blst(loops):
    """blst's functions as pointers the loops take, by name, or a skip with the reason."""
    path = os.environ.get(LIB_VARIABLE)
    if not path:
        pytest.skip(f"{LIB_VARIABLE} is not set: no blst kernels to compare with")
    if not os.path.isfile(path):
        pytest.skip(f"{LIB_VARIABLE}={path} is not a file")
    from cffi import FFI

    abi = FFI()
    abi.cdef("".join(f"void {name}(void);" for name in BLST_KINDS))
    library = abi.dlopen(path)
    # Only the addresses cross over; the loops' declarations give the real signatures.
    return {name: loops.ffi.cast(kind, abi.cast("uintptr_t", getattr(library, name)))
            for name, kind in BLST_KINDS.items()}


class Field:
    """A modulus of `limbs` limbs with its Montgomery constants and ROWS random x, y below it
    (limb rows), the same for every contender."""

    def __init__(self, modulus: int, limbs: int, seed: int) -> None:
        self.modulus, self.limbs = modulus, limbs
        self.inv = montgomery_inv(modulus)
        self.r_inv = pow(2 ** (64 * limbs), -1, modulus)
        self.mod_limbs = self.rows([modulus])
        rng = random.Random(seed)
        self.x = self.rows(rng.randrange(modulus) for _ in range(ROWS))
        self.y = self.rows(rng.randrange(modulus) for _ in range(ROWS))

    def rows(self, values) -> np.ndarray:
        return np.array([[(v >> (64 * i)) & (2 ** 64 - 1) for i in range(self.limbs)]
                         for v in values], dtype=np.uint64)

    def ints(self, rows: np.ndarray) -> List[int]:
        return [sum(int(limb) << (64 * i) for i, limb in enumerate(row)) for row in rows]


FIELDS = {"BLS12-381 p": (P, 6, 384), "BN254 p": (BN254_P, 4, 254)}


@pytest.fixture(scope="module")
def fields():
    return {name: Field(*arguments) for name, arguments in FIELDS.items()}


def _pointer(ffi, array: np.ndarray, row: int = 0):
    return ffi.cast("uint64_t *", array.ctypes.data + array.strides[0] * row)


def _shape_args(ffi, shape: str, field: Field):
    """(out, x, y) pointers for one shape and the array holding the results. The chain
    buffer has ROWS + 1 rows, row 0 = x[0], and out is the buffer one row on."""
    if shape == "throughput":
        out = np.zeros_like(field.x)
        return (_pointer(ffi, out), _pointer(ffi, field.x), _pointer(ffi, field.y)), out
    chain = np.zeros((ROWS + 1, field.limbs), dtype=np.uint64)
    chain[0] = field.x[0]
    return (_pointer(ffi, chain, 1), _pointer(ffi, chain), _pointer(ffi, field.y)), chain


def _oracle(kind: str, field: Field) -> Callable[[int, int], int]:
    p = field.modulus
    return {"mul": lambda a, b: a * b * field.r_inv % p, "add": lambda a, b: (a + b) % p,
            "sub": lambda a, b: (a - b) % p}[kind]


def _check_last_row(kind: str, shape: str, field: Field, result: np.ndarray):
    """The Python-integer oracle on the last row (for the chain: the whole chain's end)."""
    oracle = _oracle(kind, field)
    ys = field.ints(field.y)
    if shape == "throughput":
        expected = oracle(field.ints(field.x[-1:])[0], ys[-1])
    else:
        expected = field.ints(field.x[:1])[0]
        for value in ys:
            expected = oracle(expected, value)
    assert field.ints(result[-1:])[0] == expected


def _implementations() -> List[str]:
    return (["mulx"] if kernel.mulx_available() else []) + ["portable"]


def _evm384_contenders(kind: str, names: List[str], field: Field):
    """The EVM384 batch loops: label: (ffi, what to do before timing it, its call)."""
    mod = _pointer(native_ffi, field.mod_limbs)
    batches = {
        "mul": lambda out, x, y: native_lib.evm384_mulmont384_batch(out, x, y, ROWS, mod,
                                                                    field.inv),
        "add": lambda out, x, y: native_lib.evm384_addmod384_batch(out, x, y, ROWS, mod),
        "sub": lambda out, x, y: native_lib.evm384_submod384_batch(out, x, y, ROWS, mod),
    }
    if kind != "mul":                 # ADDMOD384/SUBMOD384 have one implementation
        return {"project": (native_ffi, lambda: None, batches[kind])}
    return {f"project {name}": (native_ffi, lambda name=name: kernel.use_implementation(name),
                                batches[kind]) for name in names}


def _evmmax_contenders(loops, field: Field):
    """The EVMMAX MULMODX element kernel for field.limbs, each implementation's, called
    from element4_rows as the engines call it."""
    context = modx.FieldContext(field.modulus)
    contenders = {}
    for name in _implementations():
        kernel.use_implementation(name)
        function = native_lib.evmmax_element_kernel(context.c_context, native_lib.EVMMAX_OP_MUL)
        function = loops.ffi.cast("element_fn *", native_ffi.cast("uintptr_t", function))
        ctx = loops.ffi.cast("void *", native_ffi.cast("uintptr_t", context.c_context))
        contenders[f"project {name}"] = (
            loops.ffi, lambda: None,
            # context is kept alive with the call that uses its C struct
            lambda out, x, y, function=function, ctx=ctx, context=context:
                loops.lib.element4_rows(function, out, x, y, ROWS, ctx))
    kernel.use_implementation("auto")
    return contenders


def _blst_contender(loops, blst, name: str, field: Field):
    function = blst[name]
    mod = _pointer(loops.ffi, field.mod_limbs)
    rows = {"mulx_mont_384": loops.lib.mul_rows, "mul_mont_384": loops.lib.mul_rows,
            "mulx_mont_sparse_256": loops.lib.mul4_rows}.get(name)
    if rows is None:
        call = lambda out, x, y: loops.lib.add_rows(function, out, x, y, ROWS, mod)  # noqa: E731
    else:
        call = lambda out, x, y: rows(function, out, x, y, ROWS, mod, field.inv)  # noqa: E731
    return {f"blst {name}": (loops.ffi, lambda: None, call)}


# name: (kind of operation, field, the project's contenders, blst's function)
COMPARISONS = {
    "mulmodmont384": ("mul", "BLS12-381 p", "evm384 all", "mulx_mont_384"),
    "addmod384": ("add", "BLS12-381 p", "evm384 all", "add_mod_384"),
    "submod384": ("sub", "BLS12-381 p", "evm384 all", "sub_mod_384"),
    "mulmodmont384 portable vs mulq": ("mul", "BLS12-381 p", "evm384 portable", "mul_mont_384"),
    "mulmodx 4 limbs": ("mul", "BN254 p", "evmmax", "mulx_mont_sparse_256"),
}

ROUNDS, WARMUP_ROUNDS = 300, 5


def _contenders(request, comparison: str, loops, fields):
    """label: (the ffi that makes its pointers, what to do before timing it, its call), the
    project's then blst's when BLST_KERNELS_LIB is set; and the baseline's label."""
    kind, field_name, project, blst_name = COMPARISONS[comparison]
    field = fields[field_name]
    request.addfinalizer(lambda: kernel.use_implementation("auto"))
    if project == "evmmax":
        contenders = _evmmax_contenders(loops, field)
    else:
        names = ["portable"] if project == "evm384 portable" else _implementations()
        contenders = _evm384_contenders(kind, names, field)
    baseline = next(iter(contenders))
    if os.environ.get(LIB_VARIABLE):
        blst = _blst_contender(loops, request.getfixturevalue("blst"), blst_name, field)
        contenders.update(blst)
        baseline = next(iter(blst))
    return contenders, baseline


@pytest.mark.parametrize("shape", ["latency", "throughput"])
@pytest.mark.parametrize("comparison", list(COMPARISONS))
def test_kernels_in_turn(benchmark, request, comparison, shape, loops, fields):
    """Each contender once per round, in turn, so that all see the same load: the minimum and
    median per op and their ratios to blst's (or to the first contender without blst)."""
    kind, field_name, _, _ = COMPARISONS[comparison]
    field = fields[field_name]
    contenders, baseline = _contenders(request, comparison, loops, fields)
    prepared = {label: (select, call, *_shape_args(ffi, shape, field))
                for label, (ffi, select, call) in contenders.items()}
    times: Dict[str, List[float]] = {label: [] for label in prepared}
    order = list(prepared)

    def one_round() -> None:
        for label in order:
            select, call, pointers, _ = prepared[label]
            select()
            start = time.perf_counter()
            call(*pointers)
            times[label].append(time.perf_counter() - start)
        order.append(order.pop(0))    # the next round starts with the next contender

    benchmark.group = (f"kernel {comparison} ({field_name}), {shape}: per op over "
                       f"{ROWS:,} rows, in turn")
    benchmark.extra_info.update(ops_per_round=ROWS * len(prepared),
                                label="one round: every contender once")
    benchmark.pedantic(one_round, rounds=ROUNDS, warmup_rounds=WARMUP_ROUNDS)
    for label, (_, _, _, results) in prepared.items():
        _check_last_row(kind, shape, field, results)
    benchmark.extra_info["interleaved"] = interleaved.summary(times, baseline, ROUNDS, per=ROWS)
