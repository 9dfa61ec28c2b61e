"""kernel and reference accept and reject exactly the same arguments, with the same errors
(the README promises the same functions): one list of cases run on both."""
import array
import mmap

import numpy as np
import pytest

from evm384_native import MemoryRangeError
from evm384_native.evm.kernels import kernel, reference

BACKENDS = {"kernel": kernel, "reference": reference}
SIZE = 256
OK_OFFSETS = (0, 48, 96, 144)


def _memories():
    """(name, make) of memory arguments, each made fresh (the ops write into them)."""
    base = np.zeros(2 * SIZE, dtype=np.uint8)
    return [
        ("bytearray", lambda: bytearray(SIZE)),
        ("memoryview", lambda: memoryview(bytearray(SIZE))),
        ("numpy uint8", lambda: np.zeros(SIZE, dtype=np.uint8)),
        ("numpy uint64", lambda: np.zeros(SIZE // 8, dtype=np.uint64)),
        ("numpy 2-D", lambda: np.zeros((4, SIZE // 4), dtype=np.uint8)),
        ("array.array", lambda: array.array("B", bytes(SIZE))),
        ("mmap", lambda: mmap.mmap(-1, SIZE)),
        ("bytes", lambda: bytes(SIZE)),
        ("read-only numpy", lambda: _readonly()),
        ("strided numpy", lambda: base[::2]),
        ("Fortran-order numpy", lambda: np.zeros((SIZE // 4, 4), dtype=np.uint8, order="F")),
        ("strided memoryview", lambda: memoryview(bytearray(2 * SIZE))[::2]),
        ("str", lambda: "x" * SIZE),
        ("list", lambda: [0] * SIZE),
        ("None", lambda: None),
    ]


def _readonly():
    view = np.zeros(SIZE, dtype=np.uint8)
    view.flags.writeable = False
    return view


OFFSETS = [
    ("ints", OK_OFFSETS),
    ("bool", (True, 48, 96, 144)),
    ("numpy int64", (np.int64(0), np.int64(48), 96, 144)),
    ("numpy uint32", (0, 48, np.uint32(96), 144)),
    ("numpy bool", (0, np.bool_(True), 96, 144)),
    ("float", (0.0, 48, 96, 144)),
    ("integral float", (0, 48, 96, 144.0)),
    ("str", (0, "48", 96, 144)),
    ("None", (0, 48, None, 144)),
    ("numpy 0-d array", (np.array(0), 48, 96, 144)),
    ("negative", (0, -48, 96, 144)),
    ("huge", (0, 48, 96, 2**64)),
    ("past the end", (0, 48, 96, SIZE - 48 + 1)),
]


def _outcome(backend, op, make_memory, offsets):
    """What a call does: ("ok", bytes written) or (exception type, message)."""
    mem = make_memory()
    for i, offset in enumerate(OK_OFFSETS):       # some values to compute on
        try:
            memoryview(mem).cast("B")[offset:offset + 8] = bytes([i + 1] * 8)
        except (TypeError, ValueError):
            pass
    try:
        getattr(backend, op)(mem, *offsets)
    except (TypeError, ValueError, MemoryRangeError) as error:
        return type(error).__name__, str(error)
    return "ok", bytes(memoryview(mem).cast("B")) if memoryview(mem).c_contiguous else None


@pytest.mark.parametrize("op", ["addmod384", "submod384", "mulmodmont384"])
@pytest.mark.parametrize("memory", _memories(), ids=[name for name, _ in _memories()])
def test_memory_arguments_are_treated_alike(op, memory):
    _, make = memory
    outcomes = {name: _outcome(backend, op, make, OK_OFFSETS)
                for name, backend in BACKENDS.items()}
    assert outcomes["kernel"] == outcomes["reference"]


@pytest.mark.parametrize("op", ["addmod384", "submod384", "mulmodmont384"])
@pytest.mark.parametrize("offsets", OFFSETS, ids=[name for name, _ in OFFSETS])
def test_offset_arguments_are_treated_alike(op, offsets):
    _, values = offsets
    outcomes = {name: _outcome(backend, op, lambda: bytearray(SIZE), values)
                for name, backend in BACKENDS.items()}
    assert outcomes["kernel"] == outcomes["reference"]


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_the_agreed_answers(backend):
    """The choices themselves: numpy integers count as ints, bool does not, a buffer must
    be writable and C-contiguous."""
    mem = bytearray(SIZE)
    backend.addmod384(mem, np.int64(0), np.uint32(48), 96, 144)
    with pytest.raises(TypeError, match="out offset must be an int, not bool"):
        backend.addmod384(mem, True, 48, 96, 144)
    with pytest.raises(TypeError, match="mem must be a C-contiguous buffer"):
        backend.addmod384(np.zeros(2 * SIZE, dtype=np.uint8)[::2], 0, 48, 96, 144)
    with pytest.raises(TypeError, match="not a read-only bytes"):
        backend.addmod384(bytes(SIZE), 0, 48, 96, 144)
