"""Coverage-guided fuzzing with atheris (libFuzzer), for long runs by hand (fuzz/README.md);
the targets run from their scripts (libFuzzer re-runs its own executable to merge corpora):

    fuzz/atheris_engine.py [libFuzzer options] NEW_CORPUS fuzz/corpus/engine
    fuzz/atheris_kernels.py [libFuzzer options] NEW_CORPUS fuzz/corpus/kernels

``engine``: the input is a case (:mod:`fuzz.cases`), run on the fast engine (fused and
not) and on the Python engine with the native kernels; any difference, inconsistent result
or unexpected exception is a crash. ``kernels``: ADDMOD384, SUBMOD384 and MULMODMONT384
of the C kernels against the pure-Python reference on fuzzed memory and offsets (including
out-of-range ones, which must raise the same error and leave memory alone). Coverage of the
C code needs the instrumented build the README describes; the Python side is instrumented here.
"""
from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["evm384_native", "fuzz"]):
    from evm384_native.evm.kernels import kernel, reference
    from fuzz.cases import decode
    from fuzz.programs import Limits
    from fuzz.variants import describe_differences, run_variants

VARIANTS = ["fast", "fast/unfused", "python/native"]
LIMITS = Limits(max_gas=200_000)   # time per input; also bounds memory (< 330 KB)
OPERATIONS = ("addmod384", "submod384", "mulmodmont384")


def engine_input(data: bytes) -> None:
    case = decode(data)
    case = type(case)(case.code, case.calldata, min(case.gas, LIMITS.max_gas), case.schedule)
    outcomes = run_variants(case.code, case.calldata, case.gas, case.schedule_argument(), VARIANTS)
    problems = describe_differences(outcomes, case.gas)
    if problems:
        raise AssertionError("\n".join(problems))


def _outcome(module, name: str, memory: bytearray, offsets) -> tuple:
    try:
        getattr(module, name)(memory, *offsets)
        return bytes(memory), None
    except ValueError as error:
        return bytes(memory), str(error)


def kernels_input(data: bytes) -> None:
    provider = atheris.FuzzedDataProvider(data)
    name = OPERATIONS[provider.ConsumeIntInRange(0, 2)]
    size = provider.ConsumeIntInRange(0, 400)
    offsets = [provider.ConsumeIntInRange(0, 420) if provider.ConsumeBool()
               else provider.ConsumeIntInRange(0, 2**32 - 1) for _ in range(4)]
    memory = provider.ConsumeBytes(size).ljust(size, b"\0")
    native = _outcome(kernel, name, bytearray(memory), offsets)
    expected = _outcome(reference, name, bytearray(memory), offsets)
    if native != expected:
        raise AssertionError(f"{name}{tuple(offsets)} on {memory.hex()}: native {native} "
                             f"but reference {expected}")


def main(target) -> None:
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()
