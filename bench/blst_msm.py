"""blst's own multi-scalar multiplication (``blst_p1s_mult_pippenger`` /
``blst_p2s_mult_pippenger``) through ctypes, on EIP-2537's encodings: the peer the MSM
contracts are timed against (bench/eip2537_msm_time.py). The library is blst's shared
build (``bench/blst_msm.sh BLST_DIR OUT``), found at $BLST_MSM_LIB.

``BlstMsm.prepared(kind, data)`` decodes an MSM input once (as a precompile decodes it:
points deserialised with blst's curve check, then blst's subgroup check) and returns
``run()``, which does blst's Pippenger over the decoded points and serialises the sum;
``BlstMsm.precompile(kind)`` returns a function doing all of it per call, input bytes to
output bytes, as a precompile does.
"""
from __future__ import annotations

import ctypes
import os
from typing import Callable, List, Tuple

FP = 48
FIELD, SCALAR = 64, 32
INFINITY_FLAG = 0x40
BLST_SUCCESS = 0


class _Kind:
    """The names and sizes of one group in blst's API."""

    def __init__(self, kind: int) -> None:
        self.kind = kind
        self.values = 2 * kind                     # Fp values of an affine point
        self.prefix = "blst_p1" if kind == 1 else "blst_p2"
        self.affine_bytes = FP * self.values
        self.point_bytes = FP * self.values * 3 // 2   # Jacobian (x, y, z)
        self.pair = FIELD * self.values + SCALAR


def _to_blst(kind: _Kind, fields: bytes) -> bytes:
    """An EIP-2537 point (64-byte fields, c0 before c1) as blst's uncompressed
    serialisation (48-byte fields, c1 before c0; infinity flagged)."""
    values = [fields[i + 16:i + FIELD] for i in range(0, len(fields), FIELD)]
    if not any(fields):
        return bytes([INFINITY_FLAG]) + bytes(kind.affine_bytes - 1)
    if kind.kind == 2:
        values = [values[1], values[0], values[3], values[2]]
    return b"".join(values)


def _from_blst(kind: _Kind, raw: bytes) -> bytes:
    """blst's uncompressed serialisation as EIP-2537's output (infinity: zeros)."""
    if raw[0] & INFINITY_FLAG:
        return bytes(FIELD * kind.values)
    values = [raw[i:i + FP] for i in range(0, len(raw), FP)]
    if kind.kind == 2:
        values = [values[1], values[0], values[3], values[2]]
    return b"".join(bytes(16) + v for v in values)


class BlstMsm:
    def __init__(self, path: str = "") -> None:
        path = path or os.environ.get("BLST_MSM_LIB", "")
        if not path:
            raise RuntimeError("set BLST_MSM_LIB to blst's shared library "
                               "(bench/blst_msm.sh BLST_DIR OUT builds it)")
        self.lib = ctypes.CDLL(path)
        for name in ("blst_p1s_mult_pippenger_scratch_sizeof",
                     "blst_p2s_mult_pippenger_scratch_sizeof"):
            getattr(self.lib, name).restype = ctypes.c_size_t
            getattr(self.lib, name).argtypes = [ctypes.c_size_t]
        for name in ("blst_p1_affine_in_g1", "blst_p2_affine_in_g2"):
            getattr(self.lib, name).restype = ctypes.c_bool

    def _decode(self, kind: _Kind, data: bytes) -> Tuple[List[ctypes.Array], List[bytes]]:
        """The affine points (blst's memory form) and little-endian scalars of an MSM input;
        ValueError where the precompile fails (not on the curve, not in the subgroup)."""
        lib, points, scalars = self.lib, [], []
        deserialize = getattr(lib, f"{kind.prefix}_deserialize")
        in_group = getattr(lib, "blst_p1_affine_in_g1" if kind.kind == 1 else
                           "blst_p2_affine_in_g2")
        for at in range(0, len(data), kind.pair):
            fields = data[at:at + kind.pair - SCALAR]
            point = ctypes.create_string_buffer(kind.affine_bytes)
            if deserialize(point, _to_blst(kind, fields)) != BLST_SUCCESS:
                raise ValueError(f"point {at // kind.pair}: not on the curve")
            if not in_group(point):
                raise ValueError(f"point {at // kind.pair}: not in the subgroup")
            points.append(point)
            scalars.append(data[at + kind.pair - SCALAR:at + kind.pair][::-1])
        return points, scalars

    def prepared(self, kind_number: int, data: bytes) -> Callable[[], bytes]:
        """blst's Pippenger over the decoded input: EIP-2537's output bytes."""
        kind = _Kind(kind_number)
        points, scalars = self._decode(kind, data)
        n = len(points)
        point_array = (ctypes.c_void_p * n)(*[ctypes.addressof(p) for p in points])
        scalar_buffers = [ctypes.create_string_buffer(s, SCALAR) for s in scalars]
        scalar_array = (ctypes.c_void_p * n)(*[ctypes.addressof(s) for s in scalar_buffers])
        scratch = ctypes.create_string_buffer(
            getattr(self.lib, f"{kind.prefix}s_mult_pippenger_scratch_sizeof")(n))
        total = ctypes.create_string_buffer(kind.point_bytes)
        raw = ctypes.create_string_buffer(kind.affine_bytes)
        mult = getattr(self.lib, f"{kind.prefix}s_mult_pippenger")
        serialize = getattr(self.lib, f"{kind.prefix}_serialize")

        def run() -> bytes:
            mult(total, point_array, ctypes.c_size_t(n), scalar_array,
                 ctypes.c_size_t(8 * SCALAR), scratch)
            serialize(raw, total)
            return _from_blst(kind, raw.raw)
        run.keep = (points, scalar_buffers)        # type: ignore[attr-defined]
        return run

    def precompile(self, kind_number: int) -> Callable[[bytes], bytes]:
        """Input bytes to output bytes per call: decoding and checks included."""
        return lambda data: self.prepared(kind_number, data)()
