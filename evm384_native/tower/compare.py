"""Tests of field values that EVM code branches on: equality (the keccak of two memory
images: values are canonical, so equal bytes are equal values), zero, and a point on its
curve."""
from __future__ import annotations

from types import ModuleType
from typing import Optional, Sequence

from ..asm import Label, Slot, raw
from ..asm.layout import FP_BYTES
from .fp import Emitter


def require_equal(e: Emitter, a: Slot, b: Slot, fail: Label) -> None:
    """Jump to ``fail`` unless the bytes of ``a`` and ``b`` are equal (values are
    canonical, so equal bytes are equal values)."""
    push_equal(e, a, b)
    e.asm.op("ISZERO")
    e.asm.jumpi(fail)


def push_equal(e: Emitter, a: Slot, b: Slot) -> None:
    """Push 1 if the values of ``a`` and ``b`` are equal, else 0 (keccak of their memory
    images: values are canonical, so equal bytes are equal values; where the target keeps
    values as words of memory, a few words are compared one by one)."""
    if a.size != b.size:
        raise ValueError(f"comparing slots of different sizes: {a!r}, {b!r}")

    def hashed() -> None:
        for which, slot in enumerate((a, b)):
            image = e.target.memory_image(e, slot, which)
            e.asm.push(image.size)
            e.asm.push(image)
            e.asm.op("KECCAK256")
        e.asm.op("EQ")
    e.target.push_equal(e, a, b, hashed)


def push_is_zero(e: Emitter, values: Sequence[Slot], value_bytes: int = FP_BYTES) -> None:
    """Push 1 if every value in memory (``value_bytes`` each, 32 or 48) is 0, else 0 (a
    48-byte value is two overlapping words)."""
    rels = (0,) if value_bytes == 32 else (0, value_bytes - 32)
    for i, value in enumerate(values):
        for rel in rels:
            e.asm.push(lambda value=value, rel=rel: int(value) + rel)
            e.asm.op("MLOAD")
            if i or rel:
                e.asm.op("OR")
    e.asm.op("ISZERO")


def push_field_is_zero(e: Emitter, value: Slot) -> None:
    """Push 1 if every value of the field slot ``value`` is 0, else 0 (on its memory
    image)."""
    image = e.target.memory_image(e, value)
    size = e.target.value_bytes(e)
    push_is_zero(e, [image.part(raw(size), rel, f"v{rel}")
                     for rel in range(0, image.size, size)], size)


def require_nonzero(e: Emitter, value: Slot, fail: Label) -> None:
    """Jump to ``fail`` if every value of the field slot ``value`` is 0."""
    push_field_is_zero(e, value)
    e.asm.jumpi(fail)


def require_on_curve(e: Emitter, field: ModuleType, point: Slot, b: Slot, fail: Label,
                     a: Optional[Slot] = None) -> None:
    """y^2 = x^3 + a x + b over ``field`` (:mod:`.fp` or :mod:`.fp2`); ``a`` None: a = 0."""
    with e.asm.scope("on_curve"), e.asm.temps(field.ELEMENT, field.ELEMENT) as (lhs, rhs):
        field.sqr(e, rhs, point.x)
        if a is not None:
            field.add(e, rhs, rhs, a)            # (x^2 + a) x: one product for both terms
        field.mul(e, rhs, rhs, point.x)
        field.add(e, rhs, rhs, b)
        field.sqr(e, lhs, point.y)
        require_equal(e, lhs, rhs, fail)


def require_jacobian_is(e: Emitter, field: ModuleType, t: Slot, expect: Slot,
                        fail: Label) -> None:
    """T (Jacobian, ``t``) = the affine point ``expect`` (clobbered): X = x Z^2,
    Y = y Z^3, Z != 0."""
    require_nonzero(e, t.z, fail)
    with e.asm.temps(field.ELEMENT) as (zz,):
        field.sqr(e, zz, t.z)
        field.mul(e, expect.x, expect.x, zz)
        field.mul(e, zz, zz, t.z)
        field.mul(e, expect.y, expect.y, zz)
    xy = type(expect)(t.region, t.rel, f"{t.name}.xy")    # T's X‖Y, laid out like expect
    require_equal(e, xy, expect, fail)
