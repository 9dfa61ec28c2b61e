"""Contracts built from the generators, their calldata, and a Python API that runs them.

Calldata and returndata (all field values 48 bytes; k >= 1 pairs). A calldata length that
does not fit (not a positive multiple of 288, or not 576) makes the contract REVERT. A pair
whose G1 or G2 point is all zeros (the point at infinity, as in EIP-2537) contributes 1 and
is skipped. Points are otherwise NOT validated (on curve, in the subgroup): callers must.

``miller_loop``, ``pairing``, ``pairing_product_is_one``
    k pairs of 288 bytes: G1 x‖y then G2 x.c0‖x.c1‖y.c0‖y.c1, each value little-endian
    and NOT in Montgomery form (the contract converts). ``pairing`` is the same code with
    one pair.
``final_exponentiation``
    576 bytes: an Fp12 in blst's memory layout (Montgomery form, LE, tower order).
``eip2537_pairing_check``
    the EIP-2537 pairing-check input (k x 384 bytes, 64-byte big-endian field elements),
    fully validated like the precompile: invalid input REVERTs (:mod:`.eip2537`).
``pairing_check_hinted``, ``eip2537_pairing_check_hinted``
    the input of ``pairing_product_is_one`` or ``eip2537_pairing_check``, then a 288-byte
    hint (t, with c^-1 = 1 + t w, :mod:`.hinted`; :func:`.hint.pairing_hint` computes it): the same
    answer without a final exponentiation. A hint value >= p REVERTs.
``eip2537_g1add``, ``eip2537_g2add``, ``eip2537_g1msm``, ``eip2537_g2msm``,
``eip2537_map_fp_to_g1``, ``eip2537_map_fp2_to_g2``
    the other EIP-2537 precompiles: their input, their output, invalid input REVERTs
    (:mod:`.eip2537_ops`).
``eip2537_g1add_hinted``, ``eip2537_g2add_hinted`` (EVMMAX only)
    the addition precompiles' input, then the slope of the line through the points
    (48 / 96 bytes: :func:`.add_hint.add_hint` computes it); their output; invalid input
    or a wrong hint REVERTs (:mod:`.hinted_add`).

``miller_loop``, ``pairing`` and ``final_exponentiation`` return an Fp12 in blst's memory
layout (576 bytes), directly comparable with blst's (chia_rs ``bytes(GTElement)``).
``pairing_product_is_one``, ``eip2537_pairing_check`` and the hinted checks return a
32-byte word: 1 if the product of the k pairings is one, else 0 (for the hinted checks: 0
also if the hint is wrong).

The pairing checks and the other EIP-2537 precompiles (``EVMMAX_CONTRACTS``) are built for
EVMMAX (EIP-6690) too: ``build_contract(name, target="evmmax")``, run with
``opcodes="evmmax"``; the same calldata, answers and REVERTs (:mod:`.target`), but for raw
values of p or more given to the unvalidated contracts above: outside their interface (the
EVM384 build reduces such a value, the EVMMAX build halts at the STOREX that meets it).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..asm import Fp12, Program
from ..curves.bls12_381 import BLS12_381
from ..tower.compare import push_equal
from ..tower.control import require_calldata
from ..tower.fp import Emitter
from ..tower.contract import (CONTRACT_SIZE_LIMIT, evmmax_only, least_gas_that_fits,
                              return_slot, return_word, return_word_or_revert)
from ..tower.pairing import FinalExponentiation, MillerLoop
from ..tower.target import resolve_target
from . import eip2537, eip2537_ops, hinted, hinted_add
from .add_hint import add_hint
from .hint import pairing_hint
from .raw_pairs import pair_calldata, pairs_calldata

Pair = Tuple[bytes, bytes]
GT_BYTES = 576


def _miller_loop_contract(e: Emitter, f: Fp12) -> None:
    loop = MillerLoop(e, f)
    loop.load()
    loop.emit()


def _build_miller_loop(e: Emitter, f: Fp12) -> None:
    _miller_loop_contract(e, f)
    return_slot(e.asm, f)


def _build_final_exponentiation(e: Emitter, f: Fp12) -> None:
    asm = e.asm
    require_calldata(asm, 0, GT_BYTES)
    asm.push(GT_BYTES); asm.push(0); asm.push(f); asm.op("CALLDATACOPY")
    FinalExponentiation(e).emit(f)
    return_slot(asm, f)


def _build_pairing(e: Emitter, f: Fp12) -> None:
    _miller_loop_contract(e, f)
    FinalExponentiation(e).emit(f)
    return_slot(e.asm, f)


def _build_pairing_product_is_one(e: Emitter, f: Fp12) -> None:
    _miller_loop_contract(e, f)
    FinalExponentiation(e).emit(f)
    _return_is_one(e, f)


def _build_eip2537_pairing_check(e: Emitter, f: Fp12) -> None:
    return_word_or_revert(e, lambda: _push_is_one(e, f), eip2537.emit(e, f))


def _build_pairing_check_hinted(e: Emitter, f: Fp12) -> None:
    fail, push_answer = hinted.emit(e, f)
    return_word_or_revert(e, push_answer, fail)


def _build_eip2537_pairing_check_hinted(e: Emitter, f: Fp12) -> None:
    fail, push_answer = hinted.emit(e, f, validate=True)
    return_word_or_revert(e, push_answer, fail)


def _push_is_one(e: Emitter, f: Fp12) -> None:
    push_equal(e, e.const(Fp12, "fp12_one", [1] + [0] * 11), f)


def _return_is_one(e: Emitter, f: Fp12) -> None:
    """Return a 32-byte word: 1 if f is one, else 0."""
    return_word(e, lambda: _push_is_one(e, f))


_BUILDERS: Dict[str, Callable[[Emitter, Fp12], None]] = {
    "miller_loop": _build_miller_loop,
    "final_exponentiation": _build_final_exponentiation,
    "pairing": _build_pairing,
    "pairing_product_is_one": _build_pairing_product_is_one,
    "eip2537_pairing_check": _build_eip2537_pairing_check,
    "pairing_check_hinted": _build_pairing_check_hinted,
    "eip2537_pairing_check_hinted": _build_eip2537_pairing_check_hinted,
}
# EIP-2537's other precompiles (no Fp12 result slot)
_PRECOMPILE_BUILDERS: Dict[str, Callable[[Emitter], None]] = eip2537_ops.BUILDERS
CONTRACTS = tuple(_BUILDERS) + tuple(_PRECOMPILE_BUILDERS) + hinted_add.CONTRACTS
# Built with run-time loops instead of unrolled call sequences: validation code would not
# fit the 24,576-byte limit otherwise.
_LOOPED = frozenset({"eip2537_pairing_check"})


# The contracts built for the EVMMAX target (:mod:`.target`) as well as EVM384.
EVMMAX_PAIRING_CHECKS = ("pairing_product_is_one", "eip2537_pairing_check",
                         "pairing_check_hinted", "eip2537_pairing_check_hinted")
# Built for EVMMAX only (no EVM384 build): the hinted additions.
EVMMAX_ONLY = hinted_add.CONTRACTS
EVMMAX_CONTRACTS = EVMMAX_PAIRING_CHECKS + tuple(_PRECOMPILE_BUILDERS) + EVMMAX_ONLY
TARGETS = ("evm384", "evmmax")


@lru_cache(maxsize=None)
def build_program(name: str, compact: Optional[bool] = None, target: str = "evm384"
                  ) -> Program:
    """The assembled contract with its source map and memory layout.

    ``compact`` shares code between cold routines so that every contract fits the
    24,576-byte limit; ``compact=False`` inlines them: about 3% less gas, about 31 KB under
    EVM384. The default is the target's (EVM384 compact, EVMMAX inlined).
    ``target`` "evm384" (default) or "evmmax" (EIP-6690; the contracts in
    ``EVMMAX_CONTRACTS``): run the code with ``execute(..., opcodes=target)``. Where the
    target keeps pair states in registers, the build is the first of
    :data:`~evm384_native.tower.pairing.RESIDENT_CODE` (least gas first) that fits the limit.
    """
    if name not in CONTRACTS:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    if name in EVMMAX_ONLY:                       # hand-laid-out: no compact choice
        evmmax_only(name, EVMMAX_ONLY, target)
        return hinted_add.build_program(name)
    isa = resolve_target(target)
    if isa.name != "evm384" and name not in EVMMAX_CONTRACTS:
        raise ValueError(f"{name} is built for EVM384 only; target {target!r} builds "
                         f"{', '.join(EVMMAX_CONTRACTS)}")
    compact = isa.compact if compact is None else compact
    return least_gas_that_fits(name, BLS12_381, isa, lambda e: _build(name, e), compact,
                               loops=name in _LOOPED,
                               inline_powers=name in _PRECOMPILE_BUILDERS)


def _build(name: str, e: Emitter) -> None:
    if name in _PRECOMPILE_BUILDERS:
        _PRECOMPILE_BUILDERS[name](e)
    else:
        _BUILDERS[name](e, e.asm.memory.region("result").alloc(Fp12, "f"))


def build_contract(name: str, **options: Any) -> bytes:
    """Bytecode of contract ``name`` (one of CONTRACTS); options: ``compact`` (bool) and
    ``target`` ("evm384" or "evmmax"), see :func:`build_program`."""
    unknown = set(options) - {"compact", "target"}
    if unknown:
        raise TypeError(f"unknown options for {name}: {', '.join(sorted(unknown))}")
    return build_program(name, **options).code


# --- calldata ---------------------------------------------------------------------------------

EIP2537_FP_BYTES, EIP2537_PAIR_BYTES = 64, 384


def pairs_from_eip2537(data: bytes) -> List[Pair]:
    """An EIP-2537 pairing-check input (k x 384 bytes: 64-byte big-endian field elements,
    16 zero bytes of padding each) as this module's (g1, g2) pairs. Checks the length and
    the padding only."""
    if not data or len(data) % EIP2537_PAIR_BYTES:
        raise ValueError(f"EIP-2537 input must be a positive multiple of {EIP2537_PAIR_BYTES} bytes")
    pad = EIP2537_FP_BYTES - 48
    fields = []
    for i in range(0, len(data), EIP2537_FP_BYTES):
        if any(data[i:i + pad]):
            raise ValueError(f"EIP-2537 field element at byte {i} has non-zero padding")
        fields.append(bytes(data[i + pad:i + EIP2537_FP_BYTES]))
    return [(b"".join(fields[i:i + 2]), b"".join(fields[i + 2:i + 6]))
            for i in range(0, len(fields), 6)]


_UNHINTED = {"pairing_check_hinted": "pairing_product_is_one",
             "eip2537_pairing_check_hinted": "eip2537_pairing_check"}


def _arguments(name: str, args: tuple, expected: str) -> tuple:
    """``args`` if there are as many as ``expected`` names, else a ValueError saying what
    the contract takes (not Python's bare "not enough values to unpack")."""
    names = expected.split(", ")
    if len(args) != len(names):
        raise ValueError(f"encode_calldata({name!r}, ...) takes {len(names)} argument"
                         f"{'s' if len(names) > 1 else ''} after the name ({expected}), "
                         f"got {len(args)}")
    return args


def _pairs_argument(name: str, args: tuple) -> List[Pair]:
    (pairs,) = _arguments(name, args, "pairs")
    if isinstance(pairs, (bytes, bytearray)) or not all(
            isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in pairs):
        raise ValueError(f"{name}: pairs must be a list of (g1 bytes, g2 bytes) tuples")
    if not pairs:
        raise ValueError("at least one pair is needed")
    return list(pairs)


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``pairing(g1, g2)``, ``miller_loop(pairs)``,
    ``pairing_product_is_one(pairs)``, ``final_exponentiation(f)``,
    ``eip2537_pairing_check(data)``, ``pairing_check_hinted(pairs, hint)``,
    ``eip2537_pairing_check_hinted(data, hint)``, ``eip2537_g1add_hinted(data, hint)``,
    ``eip2537_g2add_hinted(data, hint)`` and the other ``eip2537_*(data)``; see the module
    doc."""
    if name in _UNHINTED:                         # the unhinted input, then the hint
        inputs, hint = _arguments(name, args, "inputs, hint")
        if not isinstance(hint, (bytes, bytearray)) or len(hint) != hinted.HINT_BYTES:
            raise ValueError(f"a hint is {hinted.HINT_BYTES} bytes (pairing_hint computes it)")
        return encode_calldata(_UNHINTED[name], inputs) + bytes(hint)
    if name == "pairing":
        g1, g2 = _arguments(name, args, "g1, g2")
        return pair_calldata(g1, g2)
    if name in ("miller_loop", "pairing_product_is_one"):
        return pairs_calldata(_pairs_argument(name, args))
    if name in EVMMAX_ONLY:                       # the precompile's input, then the hint
        data, hint = _arguments(name, args, "data, hint")
        return hinted_add.join_calldata(name, data, hint)
    if name == "eip2537_pairing_check" or name in _PRECOMPILE_BUILDERS:
        (data,) = _arguments(name, args, "data")  # the precompile's input, unchanged
        return bytes(data)
    if name == "final_exponentiation":
        (f,) = _arguments(name, args, "f")
        if len(f) != GT_BYTES:
            raise ValueError(f"an Fp12 is {GT_BYTES} bytes")
        return bytes(f)
    raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")


# --- Python API: run the contracts on the interpreter -----------------------------------------

def run_contract(name: str, *args: Any, target: str = "evm384", **execute_options: Any):
    """``execute(build_contract(name, target=target), encode_calldata(name, *args),
    opcodes=target, **execute_options)``; raises RuntimeError if the execution fails.
    Every function below takes ``target`` too ("evmmax" for ``EVMMAX_CONTRACTS``)."""
    from .. import execute
    if "opcodes" in execute_options:
        raise TypeError("run_contract picks the opcode set from target=; do not pass opcodes=")
    isa = resolve_target(target)
    result = execute(build_contract(name, target=isa.name), encode_calldata(name, *args),
                     opcodes=isa.opcodes, **execute_options)
    if not result.success:
        raise RuntimeError(f"{name} contract failed: {result.error}")
    return result


def pairing(g1: bytes, g2: bytes, **execute_options: Any) -> bytes:
    """e(P, Q) as blst computes it (576 bytes, blst's memory layout); P as 96 bytes x‖y,
    Q as 192 bytes x.c0‖x.c1‖y.c0‖y.c1, big-endian."""
    return run_contract("pairing", g1, g2, **execute_options).output


def miller_loop(pairs: Sequence[Pair], **execute_options: Any) -> bytes:
    """The product of the Miller loops of k pairs (one shared squaring per step)."""
    return run_contract("miller_loop", list(pairs), **execute_options).output


def final_exponentiation(f: bytes, **execute_options: Any) -> bytes:
    """f^(3 (p^12 - 1) / r) like blst; 576 bytes in and out."""
    return run_contract("final_exponentiation", f, **execute_options).output


def pairing_product_is_one(pairs: Sequence[Pair], **execute_options: Any) -> bool:
    """True if the product of e(P_i, Q_i) is one (no validation of the points)."""
    output = run_contract("pairing_product_is_one", list(pairs), **execute_options).output
    return int.from_bytes(output, "big") == 1


def pairing_check_hinted(pairs: Sequence[Pair], hint: Optional[bytes] = None,
                         **execute_options: Any) -> bool:
    """:func:`pairing_product_is_one` without a final exponentiation: the contract checks
    ``hint`` (computed by :func:`.hint.pairing_hint` on the fast engine when not given).
    False if the product is not one, or if the hint is wrong."""
    pairs = list(pairs)
    if hint is None:
        hint = pairing_hint(pairs)
    output = run_contract("pairing_check_hinted", pairs, hint, **execute_options).output
    return int.from_bytes(output, "big") == 1


def eip2537_pairing_check_hinted(data: bytes, hint: Optional[bytes] = None,
                                 **execute_options: Any) -> bytes:
    """:func:`eip2537_pairing_check` without a final exponentiation: the same validation,
    then the check of ``hint`` (computed when not given). Invalid input: RuntimeError."""
    if hint is None:
        try:
            hint = pairing_hint(pairs_from_eip2537(data))
        except ValueError:                        # malformed: the contract rejects it
            hint = bytes(hinted.HINT_BYTES)
    return run_contract("eip2537_pairing_check_hinted", data, hint, **execute_options).output


def eip2537_pairing_check(data: bytes, **execute_options: Any) -> bytes:
    """What the EIP-2537 precompile 0x0f returns for ``data``: a 32-byte word, 1 if the
    product of the pairings is one. Invalid input (the precompile's error) makes the
    contract revert: RuntimeError."""
    return run_contract("eip2537_pairing_check", data, **execute_options).output


def eip2537_g1add(data: bytes, **execute_options: Any) -> bytes:
    """What the EIP-2537 precompile 0x0b (G1 addition) returns for ``data`` (256 bytes: two
    points) : the 128-byte sum. Invalid input makes the contract revert: RuntimeError."""
    return run_contract("eip2537_g1add", data, **execute_options).output


def eip2537_g2add(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x0d (G2 addition): 512 bytes in, the 256-byte sum out."""
    return run_contract("eip2537_g2add", data, **execute_options).output


def _add_hinted(name: str, data: bytes, hint: Optional[bytes],
                 execute_options: Dict[str, Any]) -> bytes:
    if hint is None:
        try:
            hint = add_hint(hinted_add.degree_of(name), data)
        except ValueError:                        # malformed: the contract rejects it
            hint = bytes(hinted_add.hint_bytes(hinted_add.degree_of(name)))
    execute_options.setdefault("target", "evmmax")
    return run_contract(name, data, hint, **execute_options).output


def eip2537_g1add_hinted(data: bytes, hint: Optional[bytes] = None,
                         **execute_options: Any) -> bytes:
    """:func:`eip2537_g1add` given the slope (48 bytes; computed by
    :func:`.add_hint.add_hint` when not given), EVMMAX only: the 128-byte sum. Invalid
    input or a wrong hint makes the contract revert: RuntimeError."""
    return _add_hinted("eip2537_g1add_hinted", data, hint, execute_options)


def eip2537_g2add_hinted(data: bytes, hint: Optional[bytes] = None,
                         **execute_options: Any) -> bytes:
    """:func:`eip2537_g2add` given the slope (96 bytes, c0 then c1), EVMMAX only: the
    256-byte sum."""
    return _add_hinted("eip2537_g2add_hinted", data, hint, execute_options)


def eip2537_g1msm(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x0c (G1 MSM): k x 160 bytes of (point, scalar) in, 128 bytes out."""
    return run_contract("eip2537_g1msm", data, **execute_options).output


def eip2537_g2msm(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x0e (G2 MSM): k x 288 bytes of (point, scalar) in, 256 bytes out."""
    return run_contract("eip2537_g2msm", data, **execute_options).output


def eip2537_map_fp_to_g1(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x10 (map Fp to G1): 64 bytes in, the 128-byte point out."""
    return run_contract("eip2537_map_fp_to_g1", data, **execute_options).output


def eip2537_map_fp2_to_g2(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x11 (map Fp2 to G2): 128 bytes in, the 256-byte point out."""
    return run_contract("eip2537_map_fp2_to_g2", data, **execute_options).output
