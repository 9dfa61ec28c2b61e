"""The project's field kernels beside blst's, in one process: throughput and latency.

    BLST_KERNELS_LIB=/path/to/libblst_kernels.so \\
        python -m pytest bench/test_bench_blst_kernels.py --benchmark-json=/tmp/blst_kernels.json
    python bench/report.py /tmp/blst_kernels.json

``BLST_KERNELS_LIB`` names a shared library, built by you from blst's sources, that exports
blst's own ``mulx_mont_384``, ``add_mod_384`` and ``sub_mod_384`` (blst's C signatures; they
are internal, hidden symbols in a normal blst build). Without it only the project's kernels
are timed (ratios to the first of them); a path that is not a file skips with the reason.
Nothing of blst is in this repository.

Each round runs every contender once, in turn, in two shapes over ROWS rows of 48-byte values:
- throughput: out[i] = x[i] op y[i], independent rows;
- latency (dependent chain): acc = acc op y[i], each operation waiting for the previous one,
  through memory (row i + 1 is written from row i), as in the engines, where every EVM384
  operand lives in EVM memory.
blst's functions are called through a function pointer from a loop compiled at bench time
(cffi); the project's through its own batch loops (the Montgomery multiplication through a
function pointer as well, additions inlined as in the engines).
"""
from __future__ import annotations

import os
import random
import time
from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

from evm384_native import kernel
from evm384_native._native import ffi as native_ffi
from evm384_native._native import lib as native_lib
from evm384_native.limbs import array_to_ints, ints_to_array
from evm384_native.montgomery import montgomery_inv

import interleaved  # bench/interleaved.py

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
P_INV = montgomery_inv(P)
R_INV = pow(2 ** 384, -1, P)
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
"""
# The same row loops as the project's evm384_*_batch, around a function pointer.
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
def blst(tmp_path_factory):
    """(loops module, blst's three functions as pointers), or a skip with the reason."""
    path = os.environ.get(LIB_VARIABLE)
    if not path:
        pytest.skip(f"{LIB_VARIABLE} is not set: no blst kernels to compare with")
    if not os.path.isfile(path):
        pytest.skip(f"{LIB_VARIABLE}={path} is not a file")
    from cffi import FFI

    loops = _build_loops(str(tmp_path_factory.mktemp("blst_loops")))
    abi = FFI()
    abi.cdef("void mulx_mont_384(void); void add_mod_384(void); void sub_mod_384(void);")
    library = abi.dlopen(path)
    kinds = {"mulx_mont_384": "blst_mul_fn *", "add_mod_384": "blst_add_fn *",
             "sub_mod_384": "blst_add_fn *"}
    # Only the addresses cross over; the loops' declarations give the real signatures.
    return loops, {name: loops.ffi.cast(kind, abi.cast("uintptr_t", getattr(library, name)))
                   for name, kind in kinds.items()}


@pytest.fixture(scope="module")
def operands():
    """ROWS random x and y values below p, as limb rows."""
    rng = random.Random(384)
    x = ints_to_array(rng.randrange(P) for _ in range(ROWS))
    y = ints_to_array(rng.randrange(P) for _ in range(ROWS))
    return x, y


def _pointer(ffi, array: np.ndarray, row: int = 0):
    return ffi.cast("uint64_t *", array.ctypes.data + 48 * row)


def _shape_args(ffi, shape: str, x: np.ndarray, y: np.ndarray):
    """(out, x, y) pointers for one shape and the array holding the results. The chain
    buffer has ROWS + 1 rows, row 0 = x[0], and out is the buffer one row on."""
    if shape == "throughput":
        out = np.zeros_like(x)
        return (_pointer(ffi, out), _pointer(ffi, x), _pointer(ffi, y)), out
    chain = np.zeros((ROWS + 1, 6), dtype=np.uint64)
    chain[0] = x[0]
    return (_pointer(ffi, chain, 1), _pointer(ffi, chain), _pointer(ffi, y)), chain


MOD_LIMBS = ints_to_array([P])

MOD_POINTER = _pointer(native_ffi, MOD_LIMBS)
PROJECT_CALLS = {
    "mulmodmont384": lambda out, x, y: native_lib.evm384_mulmont384_batch(
        out, x, y, ROWS, MOD_POINTER, P_INV),
    "addmod384": lambda out, x, y: native_lib.evm384_addmod384_batch(out, x, y, ROWS, MOD_POINTER),
    "submod384": lambda out, x, y: native_lib.evm384_submod384_batch(out, x, y, ROWS, MOD_POINTER),
}
BLST_NAMES = {"mulmodmont384": "mulx_mont_384", "addmod384": "add_mod_384",
              "submod384": "sub_mod_384"}
ORACLES = {"mulmodmont384": lambda a, b: a * b * R_INV % P,
           "addmod384": lambda a, b: (a + b) % P, "submod384": lambda a, b: (a - b) % P}


def _blst_call(blst, op: str):
    loops, functions = blst
    function = functions[BLST_NAMES[op]]
    mod = _pointer(loops.ffi, MOD_LIMBS)
    if op == "mulmodmont384":
        return lambda out, x, y: loops.lib.mul_rows(function, out, x, y, ROWS, mod, P_INV)
    return lambda out, x, y: loops.lib.add_rows(function, out, x, y, ROWS, mod)


def _check_last_row(op: str, shape: str, x: np.ndarray, y: np.ndarray, result: np.ndarray):
    """The Python-integer oracle on the last row (for the chain: the whole chain's end)."""
    ys = array_to_ints(y)
    if shape == "throughput":
        expected = ORACLES[op](array_to_ints(x[-1:])[0], ys[-1])
    else:
        expected = array_to_ints(x[:1])[0]
        for value in ys:
            expected = ORACLES[op](expected, value)
    assert array_to_ints(result[-1:])[0] == expected


ROUNDS, WARMUP_ROUNDS = 300, 5


def _contenders(request, op: str) -> Dict[str, Tuple[object, Callable[[], None], Callable]]:
    """label: (the ffi that makes its pointers, what to do before timing it, its call);
    blst's when BLST_KERNELS_LIB is set."""
    if op == "mulmodmont384":
        names = (["mulx"] if kernel.mulx_available() else []) + ["portable"]
        contenders = {f"project {name}": (native_ffi,
                                          lambda name=name: kernel.use_implementation(name),
                                          PROJECT_CALLS[op]) for name in names}
    else:                           # ADDMOD384/SUBMOD384 have one implementation
        contenders = {"project": (native_ffi, lambda: None, PROJECT_CALLS[op])}
    request.addfinalizer(lambda: kernel.use_implementation("auto"))
    if os.environ.get(LIB_VARIABLE):
        blst = request.getfixturevalue("blst")
        contenders["blst"] = (blst[0].ffi, lambda: None, _blst_call(blst, op))
    return contenders


@pytest.mark.parametrize("shape", ["latency", "throughput"])
@pytest.mark.parametrize("op", list(PROJECT_CALLS))
def test_kernels_in_turn(benchmark, request, op, shape, operands):
    """Each contender once per round, in turn, so that all see the same load: the minimum and
    median per op and their ratios to blst's (or to the first contender without blst)."""
    x, y = operands
    contenders = _contenders(request, op)
    prepared = {label: (select, call, *_shape_args(ffi, shape, x, y))
                for label, (ffi, select, call) in contenders.items()}
    times: Dict[str, List[float]] = {label: [] for label in prepared}

    def one_round() -> None:
        for label, (select, call, pointers, _) in prepared.items():
            select()
            start = time.perf_counter()
            call(*pointers)
            times[label].append(time.perf_counter() - start)

    benchmark.group = f"kernel {op}, {shape}: per op over {ROWS:,} rows, in turn"
    benchmark.extra_info.update(ops_per_round=ROWS * len(prepared),
                                label="one round: every contender once")
    benchmark.pedantic(one_round, rounds=ROUNDS, warmup_rounds=WARMUP_ROUNDS)
    for label, (_, _, _, results) in prepared.items():
        _check_last_row(op, shape, x, y, results)
    benchmark.extra_info["interleaved"] = interleaved.summary(
        times, "blst" if "blst" in times else next(iter(times)), ROUNDS, per=ROWS)
