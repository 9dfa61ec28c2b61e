"""What the native EVMMAX kernels (:mod:`.modx`) and their
pure-Python reference (:mod:`.modx_reference`) share: the EIP-6690
limits, argument validation with its exceptions, the field-context facts that
follow from the modulus, and the public API both implement.

Values inside registers are in the *internal form*: Montgomery form
``x * R mod m`` with ``R = 2**(64 * limbs)`` for an odd modulus, the value itself
for a power-of-two modulus. LOADX/STOREX convert; the arithmetic does not.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from . import fp2_shape
from ...errors import (ModulusError, RegisterAllocationError, RegisterRangeError,
                     UnreducedValueError, VectorError)
from .limbs import check_limb_rows

MAX_LIMBS = 12
LIMB_BITS = 64
LIMB_BYTES = 8
MAX_MODULUS_BYTES = 96            # SETMODX: modulus_size <= 96
MAX_REGISTERS = 256               # SETMODX: 0 < alloc_count <= 256
MAX_REGISTER_BYTES = 24576        # SETMODX: the register space cap
MAX_IMMEDIATE = 255               # the seven vector immediates are bytes
OPERATIONS = ("add", "sub", "mul")
VECTOR_IMMEDIATES = ("out_idx", "out_stride", "x_idx", "x_stride", "y_idx", "y_stride", "count")
# Or'ed into the operation of a group's first record (csrc/evmmax.h): on a product, an Fp2
# product's six records (fp2_products); on an addition, an Fp2 squaring's five
# (fp2_squares). Each group's shape starts with its own operation.
FP2_PRODUCT_FLAG = 0x80
# Or'ed into the operation of a product of two elements by one register (count 2, y stride
# 0) that begins an Fp2 product by xi = k + u (fp2_xi_products).
XI_PRODUCT_FLAG = 0x40
# Or'ed into a one-element product that begins the first five operations of an Fp2 product
# for another non-residue (fp2_products).
FP2_CROSS_FLAG = 0x20


def raise_if(error: Optional[Exception]) -> None:
    if error is not None:
        raise error


def _check_int(value: object, name: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")


# --- SETMODX ---------------------------------------------------------------------------

def modulus_error(modulus_be: bytes) -> Optional[ModulusError]:
    """SETMODX's asserts on the modulus bytes, in the order the C checks them."""
    if len(modulus_be) > MAX_MODULUS_BYTES:
        return ModulusError("too long", f"the modulus has {len(modulus_be)} bytes; "
                                        f"SETMODX takes at most {MAX_MODULUS_BYTES}")
    modulus = int.from_bytes(modulus_be, "big")
    if modulus < 3:
        return ModulusError("too small", f"the modulus must be at least 3, got {modulus}")
    if modulus % 2 == 0 and modulus & (modulus - 1):
        return ModulusError("even", f"the modulus must be odd or a power of two, got {modulus:#x}")
    return None


def modulus_bytes(modulus: int) -> bytes:
    """The shortest big-endian bytes of a modulus given as an int (checked)."""
    _check_int(modulus, "modulus")
    if modulus < 0:
        raise ModulusError("too small", f"the modulus must be at least 3, got {modulus}")
    size = max(1, (modulus.bit_length() + 7) // 8)
    if size > MAX_MODULUS_BYTES:
        raise ModulusError("too long", f"the modulus must be below 2**768, got {size} bytes")
    return modulus.to_bytes(size, "big")


def element_limbs(modulus: int) -> int:
    """64-bit limbs per register: the modulus's bit length rounded up to 64 bits."""
    return (modulus.bit_length() + LIMB_BITS - 1) // LIMB_BITS


def check_register_count(count: object, element_size: int) -> None:
    _check_int(count, "register count")
    if not 0 < count <= MAX_REGISTERS:
        raise RegisterAllocationError(f"a field context has 1 to {MAX_REGISTERS} registers, "
                                      f"not {count}")
    if count * element_size > MAX_REGISTER_BYTES:
        raise RegisterAllocationError(
            f"{count} registers of {element_size} bytes exceed the "
            f"{MAX_REGISTER_BYTES}-byte register space")


# --- the vector operations --------------------------------------------------------------

def check_operation(operation: str) -> None:
    if operation not in OPERATIONS:
        raise ValueError(f"unknown operation {operation!r}; choose one of {OPERATIONS}")


def immediates_error(immediates: Sequence[object]) -> Optional[Exception]:
    """ADDMODX/SUBMODX/MULMODX's asserts on the immediates alone, in the C's order: they
    are bytes, count != 0, out_stride != 0."""
    for name, value in zip(VECTOR_IMMEDIATES, immediates):
        _check_int(value, name)
        if not 0 <= value <= MAX_IMMEDIATE:  # type: ignore[operator]
            return VectorError("immediate", f"{name} must be a byte (0..255), got {value}")
    if immediates[6] == 0:
        return VectorError("count", "count must not be 0")
    if immediates[1] == 0:
        return VectorError("out_stride", "out_stride must not be 0")
    return None


def vector_error(register_count: int, immediates: Sequence[object]) -> Optional[Exception]:
    """ADDMODX/SUBMODX/MULMODX's asserts, in the C's order: ``immediates_error``'s, then
    the EIP's bound for out, x and y: idx + stride * count < register_count (one past the
    last register accessed)."""
    error = immediates_error(immediates)
    if error is not None:
        return error
    out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count = immediates
    for operand, idx, stride in (("out", out_idx, out_stride), ("x", x_idx, x_stride),
                                 ("y", y_idx, y_stride)):
        end = idx + stride * count  # type: ignore[operator]
        if end >= register_count:
            return RegisterRangeError(
                operand, f"{operand}: {operand}_idx + {operand}_stride * count = {end} "
                         f"must be below the {register_count} registers")
    return None


class VectorProgram:
    """ADDMODX/SUBMODX/MULMODX operations to run in order (``RegisterFileBase.run``), their
    immediates checked once: bytes, count != 0, out_stride != 0. ``register_end`` is the
    largest ``idx + stride * count`` of any operand: the program's bounds hold in a file
    of more registers than that. ``encoded`` is the kernels' record format."""

    __slots__ = ("operations", "register_end", "encoded")

    def __init__(self, operations: Sequence[Tuple[str, Sequence[int]]]) -> None:
        checked = []
        for operation, immediates in operations:
            if operation not in OPERATIONS:
                raise ValueError(f"operation must be one of {', '.join(OPERATIONS)}, "
                                 f"not {operation!r}")
            raise_if(immediates_error(immediates))
            checked.append((operation, tuple(immediates)))
        self.operations: Tuple[Tuple[str, Tuple[int, ...]], ...] = tuple(checked)
        self.register_end = max((idx + stride * immediates[6]
                                 for _, immediates in checked
                                 for idx, stride in zip(immediates[0:6:2], immediates[1:6:2])),
                                default=0)
        flags = dict(fp2_products(checked))
        flags.update((i, FP2_PRODUCT_FLAG) for i in fp2_squares(checked))
        for i in fp2_xi_products(checked):
            flags[i] = flags.get(i, 0) | XI_PRODUCT_FLAG
        self.encoded = b"".join(
            bytes((OPERATIONS.index(operation) | flags.get(i, 0), *immediates))
            for i, (operation, immediates) in enumerate(checked))

    def __len__(self) -> int:
        return len(self.operations)


def vector_indices(idx: int, stride: int, count: int) -> List[int]:
    return [idx + i * stride for i in range(count)]


def fp2_products(operations: Sequence[Tuple[str, Tuple[int, ...]]]
                 ) -> Iterator[Tuple[int, int]]:
    """Where an Fp2 product (:mod:`.fp2_shape`) starts that the native kernels may run as
    Karatsuba (``csrc/fp2_product.h``, which checks the context and the values at run
    time), with its flag: ``FP2_PRODUCT_FLAG`` for the whole product (the C step writes c1
    and c0 only), else ``FP2_CROSS_FLAG`` for its first five operations (another
    non-residue: the step writes t0, t1 and c1). One-element operations, registers apart as
    :func:`.fp2_shape.separate` asks, and for each location the step leaves unwritten a
    later operation writes it before any reads it (registers change only after an
    operation's whole loop, so one that reads and writes a temporary reads it)."""
    start = 0
    while start + len(fp2_shape.CROSS_SHAPE) <= len(operations):
        found = _fp2_group(operations, start)
        if found is None:
            start += 1
            continue
        size, flag = found
        yield start, flag
        start += size


def _fp2_group(operations: Sequence[Tuple[str, Tuple[int, ...]]], start: int
               ) -> Optional[Tuple[int, int]]:
    """(records, flag) of the group that starts at ``start``, else None."""
    if operations[start + 4][0] != "add":           # the cheap test first
        return None
    for shape, match, flag in ((fp2_shape.SHAPE, fp2_shape.match, FP2_PRODUCT_FLAG),
                               (fp2_shape.CROSS_SHAPE, fp2_shape.match_cross, FP2_CROSS_FLAG)):
        group = operations[start:start + len(shape)]
        if len(group) < len(shape) or any(immediates[6] != 1 for _, immediates in group):
            continue
        product = match([(operation, immediates[0], immediates[2], immediates[4])
                         for operation, immediates in group])
        if product is None or not fp2_shape.separate(product, 1):
            continue
        later = operations[start + len(group):start + len(group) + fp2_shape.DEAD_WINDOW]
        if all(_written_before_read(location, later) for location in product.dead):
            return len(group), flag
    return None


# An Fp2 squaring as ``tower.fp2.sqr`` emits it for u^2 = -1 (the shape of
# evm/fp2_squares.py), in (operation, out, x, y) roles.
FP2_SQUARE_SHAPE = (("add", "t0", "a0", "a1"), ("sub", "t1", "a0", "a1"),
                    ("mul", "c1", "a0", "a1"), ("add", "c1", "c1", "c1"),
                    ("mul", "c0", "t0", "t1"))


def fp2_squares(operations: Sequence[Tuple[str, Tuple[int, ...]]]) -> Iterator[int]:
    """Where an Fp2 squaring (:data:`FP2_SQUARE_SHAPE`) starts that the native kernels
    may run as two products of the sum and the difference left unreduced (``csrc/
    evmmax_kernels.h``, which checks the context and the values at run time, and writes
    only c1 and c0): one-element operations, each role at one register, t0, t1, c1 and c0
    apart and the temporaries apart from the inputs (c1 and c0 may be inputs: they are
    written after the last read of a0 and a1), and t0 and t1 written by a later operation
    before any reads them (as :func:`fp2_products` decides)."""
    for start in range(len(operations) - len(FP2_SQUARE_SHAPE) + 1):
        group = operations[start:start + len(FP2_SQUARE_SHAPE)]
        if group[4][0] != "mul" or group[0][0] != "add":   # the cheap tests first
            continue
        roles = _roles(group, FP2_SQUARE_SHAPE)
        if roles is None:
            continue
        t0, t1, c1, c0 = (roles[name] for name in ("t0", "t1", "c1", "c0"))
        if len({t0, t1, c1, c0}) < 4 or {t0, t1} & {roles["a0"], roles["a1"]}:
            continue
        later = operations[start + len(group):start + len(group) + fp2_shape.DEAD_WINDOW]
        if all(_written_before_read(temporary, later) for temporary in (t0, t1)):
            yield start


def fp2_xi_products(operations: Sequence[Tuple[str, Tuple[int, ...]]]) -> Iterator[int]:
    """Where a product by xi = k + u for u^2 = -1 starts, as ``tower.fp2.mul_by_xi`` emits
    it: (c0, c1) = (a0, a1) * k (one product of two elements by the register k), c0 =
    c0 - a1, c1 = c1 + a0; the native kernels may run the three in one step at 4 limbs
    (``csrc/evmmax_kernels.h``: the records' own operations, so no bound on the modulus or
    the values). a0 and a1 must be apart from c0 and c1 (the records read them after the
    products land); nothing is left in temporaries, so nothing needs to be dead."""
    for start in range(len(operations) - 2):
        (first, (c0, c_stride, a0, a_stride, k, k_stride, count)) = operations[start]
        if first != "mul" or count != 2 or (c_stride, a_stride, k_stride) != (1, 1, 0):
            continue
        if operations[start + 1] != ("sub", (c0, 1, c0, 1, a0 + 1, 1, 1)):
            continue
        if operations[start + 2] not in (("add", (c0 + 1, 1, c0 + 1, 1, a0, 1, 1)),
                                         ("add", (c0 + 1, 1, a0, 1, c0 + 1, 1, 1))):
            continue
        if {a0, a0 + 1} & {c0, c0 + 1}:
            continue
        yield start


def _roles(group: Sequence[Tuple[str, Tuple[int, ...]]],
           shape: Sequence[Tuple[str, str, str, str]]) -> Optional[dict]:
    """Each role's register if the one-element operations of ``group`` have ``shape``
    with every role at one register, else None."""
    roles: dict = {}
    for (operation, immediates), (expected, *names) in zip(group, shape):
        if operation != expected or immediates[6] != 1:
            return None
        for name, register in zip(names, immediates[0:6:2]):
            if roles.setdefault(name, register) != register:
                return None
    return roles


def _written_before_read(register: int, operations: Sequence[Tuple[str, Tuple[int, ...]]]
                         ) -> bool:
    for _, (out, out_stride, x, x_stride, y, y_stride, count) in operations:
        if _in_vector(register, x, x_stride, count) or _in_vector(register, y, y_stride, count):
            return False
        if _in_vector(register, out, out_stride, count):
            return True
    return False


def _in_vector(register: int, idx: int, stride: int, count: int) -> bool:
    """Whether register is one of vector_indices(idx, stride, count), in O(1)."""
    if stride == 0:
        return register == idx
    return idx <= register < idx + stride * count and (register - idx) % stride == 0


# --- LOADX / STOREX ---------------------------------------------------------------------

def transfer_error(register_count: int, first: object, count: object) -> Optional[Exception]:
    """LOADX/STOREX's register range [first, first + count) inside the file."""
    _check_int(first, "register index")
    _check_int(count, "count")
    if first < 0 or count < 0 or first + count > register_count:  # type: ignore[operator]
        return RegisterRangeError(
            "registers", f"registers [{first}, {first}+{count}) lie outside the "
                         f"{register_count} registers")
    return None


def split_elements(data: object, element_size: int) -> int:
    """How many values a STOREX byte string holds (a whole number of elements)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    if len(data) % element_size:
        raise ValueError(f"data must be a multiple of the {element_size}-byte element size, "
                         f"got {len(data)} bytes")
    return len(data) // element_size


def unreduced_error(operand: str, index: int, modulus: int) -> UnreducedValueError:
    return UnreducedValueError(operand, index,
                               f"{operand}[{index}] is not below the modulus {modulus:#x}")


# --- batches on numpy rows of limbs -----------------------------------------------------

def check_batch_pair(x: object, y: object, limbs: int) -> None:
    check_limb_rows(x, "x", limbs)
    check_limb_rows(y, "y", limbs)
    if x.shape != y.shape:  # type: ignore[union-attr]
        raise ValueError(f"x and y must have the same shape, not {x.shape} and {y.shape}")  # type: ignore[union-attr]


def ints_to_rows(values: Sequence[int], limbs: int) -> np.ndarray:
    """An (n, limbs) uint64 array, least significant limb first, one row per value."""
    mask = (1 << LIMB_BITS) - 1
    rows = np.zeros((len(values), limbs), dtype=np.uint64)
    for i, value in enumerate(values):
        _check_int(value, "value")
        if not 0 <= value < 1 << (LIMB_BITS * limbs):
            raise ValueError(f"value {value:#x} does not fit {limbs} limbs")
        rows[i] = [(value >> (LIMB_BITS * j)) & mask for j in range(limbs)]
    return rows


def rows_to_ints(rows: np.ndarray) -> List[int]:
    """Inverse of :func:`ints_to_rows`."""
    return [sum(int(limb) << (LIMB_BITS * j) for j, limb in enumerate(row)) for row in rows]


BatchRunner = Callable[[str, "FieldContextBase", np.ndarray, np.ndarray], np.ndarray]
BatchFunction = Callable[["FieldContextBase", np.ndarray, np.ndarray], np.ndarray]


def batch_functions(run: BatchRunner) -> Tuple[BatchFunction, BatchFunction, BatchFunction]:
    """addmodx_batch, submodx_batch, mulmodx_batch on a backend's ``run(operation, ...)``."""

    def addmodx_batch(context: FieldContextBase, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Row-wise ADDMODX of two (n, limbs) uint64 arrays in internal form."""
        return run("add", context, x, y)

    def submodx_batch(context: FieldContextBase, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Row-wise SUBMODX of two (n, limbs) uint64 arrays in internal form."""
        return run("sub", context, x, y)

    def mulmodx_batch(context: FieldContextBase, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Row-wise MULMODX of two (n, limbs) uint64 arrays in internal form."""
        return run("mul", context, x, y)

    return addmodx_batch, submodx_batch, mulmodx_batch


# --- the API both backends implement ----------------------------------------------------

# secp256k1's p = 2**256 - c: registers of this modulus hold values as they are, not in
# Montgomery form, and a product reduces by folding with 2**256 = c mod p
# (csrc/secp256k1_plain.h, docs/evmmax.md); LOADX's values, gas and halts are the same.
PLAIN_FORM_MODULUS = 2**256 - 2**32 - 977


class FieldContextBase(ABC):
    """A modulus as SETMODX set it up: ``limbs``, ``element_size`` (bytes),
    ``is_power_of_two``, ``is_plain`` (registers as they are: powers of two and
    :data:`PLAIN_FORM_MODULUS`), and for odd moduli the Montgomery constants ``inv``
    (-m**-1 mod 2**64) and ``r_squared`` (R**2 mod m); 0 for powers of two."""

    modulus: int
    limbs: int
    element_size: int
    is_power_of_two: bool
    is_plain: bool
    inv: int
    r_squared: int

    def __init__(self, modulus: int) -> None:
        self._setup(modulus_bytes(modulus))

    @classmethod
    def from_bytes(cls, modulus_be: bytes) -> "FieldContextBase":
        """The context SETMODX makes from the modulus bytes it reads from memory."""
        if not isinstance(modulus_be, (bytes, bytearray, memoryview)):
            raise TypeError(f"modulus_be must be bytes, not {type(modulus_be).__name__}")
        context = cls.__new__(cls)
        context._setup(bytes(modulus_be))
        return context

    @abstractmethod
    def _setup(self, modulus_be: bytes) -> None:
        """SETMODX's checks (raising ModulusError) and precomputation."""

    def _describe(self, modulus_be: bytes) -> None:
        """Check the modulus bytes as SETMODX does and set the plain facts."""
        error = modulus_error(modulus_be)
        if error is not None:
            raise error
        self.modulus = int.from_bytes(modulus_be, "big")
        self.limbs = element_limbs(self.modulus)
        self.element_size = LIMB_BYTES * self.limbs
        self.is_power_of_two = self.modulus & (self.modulus - 1) == 0
        self.is_plain = self.is_power_of_two or self.modulus == PLAIN_FORM_MODULUS

    def to_internal(self, value: int) -> int:
        """The register form of a canonical value below the modulus."""
        self._check_reduced(value)
        return value if self.is_plain else (value << (LIMB_BITS * self.limbs)) % self.modulus

    def from_internal(self, value: int) -> int:
        """The canonical value of a register form below the modulus."""
        self._check_reduced(value)
        if self.is_plain:
            return value
        return value * pow(1 << (LIMB_BITS * self.limbs), -1, self.modulus) % self.modulus

    def _check_reduced(self, value: int) -> None:
        _check_int(value, "value")
        if not 0 <= value < self.modulus:
            raise unreduced_error("value", 0, self.modulus)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(modulus={self.modulus:#x}, limbs={self.limbs})"


class RegisterFileBase(ABC):
    """The registers of one field context, all zero at first (SETMODX's allocation).

    ``addmodx``/``submodx``/``mulmodx`` take the EIP's seven immediates; results
    land after the whole loop, so operands may overlap in any way. ``storex``
    takes big-endian canonical values (STOREX from EVM memory), ``loadx`` gives
    them back (LOADX to EVM memory). ``internal(i)`` is register i's raw value.
    """

    def __init__(self, context: FieldContextBase, count: int) -> None:
        check_register_count(count, context.element_size)
        self.context = context
        self.count = count

    def addmodx(self, out_idx: int, out_stride: int, x_idx: int, x_stride: int,
                y_idx: int, y_stride: int, count: int) -> None:
        self._vector("add", (out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count))

    def submodx(self, out_idx: int, out_stride: int, x_idx: int, x_stride: int,
                y_idx: int, y_stride: int, count: int) -> None:
        self._vector("sub", (out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count))

    def mulmodx(self, out_idx: int, out_stride: int, x_idx: int, x_stride: int,
                y_idx: int, y_stride: int, count: int) -> None:
        self._vector("mul", (out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count))

    def run(self, program: VectorProgram) -> None:
        """The program's operations in order, as their methods would run them one by one;
        an assert fails before any of them runs."""
        if program.register_end >= self.count:
            for _, immediates in program.operations:   # the first failing one, named
                raise_if(vector_error(self.count, immediates))
        self._run_program(program)

    def storex(self, dest: int, data: bytes) -> None:
        """STOREX: the big-endian values in data into registers [dest, ...), in
        internal form; every value is checked below the modulus before any is stored."""
        count = split_elements(data, self.context.element_size)
        raise_if(transfer_error(self.count, dest, count))
        self._store(dest, bytes(data), count)

    def loadx(self, source: int, count: int) -> bytes:
        """LOADX: registers [source, source + count) as big-endian canonical values."""
        raise_if(transfer_error(self.count, source, count))
        return self._load(source, count)

    def internal(self, index: int) -> int:
        """Register index's raw (internal-form) value."""
        raise_if(transfer_error(self.count, index, 1))
        return self._internal(index)

    def _vector(self, operation: str, immediates: tuple) -> None:
        raise_if(vector_error(self.count, immediates))
        self._run_vector(operation, immediates)

    def _first_unreduced(self, data: bytes, count: int) -> Optional[int]:
        """The index of the first value in STOREX data not below the modulus."""
        size = self.context.element_size
        return next((i for i in range(count)
                     if int.from_bytes(data[i * size:(i + 1) * size], "big")
                     >= self.context.modulus), None)

    # What each backend implements, on checked arguments:

    @abstractmethod
    def _run_vector(self, operation: str, immediates: tuple) -> None:
        """One vector operation ("add", "sub", "mul") with its seven immediates."""

    @abstractmethod
    def _run_program(self, program: VectorProgram) -> None:
        """A VectorProgram whose bounds hold in this file."""

    @abstractmethod
    def _store(self, dest: int, data: bytes, count: int) -> None:
        """STOREX of count values (raising UnreducedValueError before writing any)."""

    @abstractmethod
    def _load(self, source: int, count: int) -> bytes:
        """LOADX of count registers."""

    @abstractmethod
    def _internal(self, index: int) -> int:
        """Register index's raw value."""
