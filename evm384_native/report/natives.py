"""The native library that does a precompile's job, for the report's "native" column: one
per precompile address, each taking the precompile's own input (``Usage.precompile_input``
of the contract's calldata) and returning a zero-argument call that does the job, its
inputs decoded beforehand where the library has a decoded form.

Only pyblst is a dependency of the wheel; the others come with the ``test`` extra, so at
run time each may be missing: :func:`prepare` then says "not installed"."""
from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ..bls12_381.calldata import pairs_from_eip2537
from ..modexp.reference import parse
from .peers import blst_check

Job = Callable[[], object]
NOT_INSTALLED = "not installed"
NO_LIBRARY = "no library here"


@dataclass(frozen=True)
class Native:
    """A library (``module``, importable name; ``label``, what the page calls it) and how it
    is set up on a precompile input."""
    label: str
    module: str
    prepare: Callable[[bytes], Job]


def _ints(data: bytes, width: int) -> Tuple[int, ...]:
    return tuple(int.from_bytes(data[i:i + width], "big") for i in range(0, len(data), width))


def eip2537_pairs(data: bytes) -> List[Tuple[tuple, tuple]]:
    """An EIP-2537 pairing-check input as affine pairs of ints, ((x, y), ((x0, x1), (y0,
    y1))), as :mod:`.peers` takes them."""
    pairs = []
    for g1, g2 in pairs_from_eip2537(data):
        x, y = _ints(g1, 48)
        x0, x1, y0, y1 = _ints(g2, 48)
        pairs.append(((x, y), ((x0, x1), (y0, y1))))
    return pairs


def _blst_pairing_check(data: bytes) -> Job:
    """pyblst: the pairs as blst points, then Miller loops and final_verify."""
    return blst_check(eip2537_pairs(data))


def _unpadded(data: bytes) -> bytes:
    """EIP-2537's 64-byte field elements as 48-byte ones (the 16 zero bytes off)."""
    return b"".join(data[i + 16:i + 64] for i in range(0, len(data), 64))


def _arkworks_group(kind: int):
    import py_arkworks_bls12381 as ark
    return ark.G1Point if kind == 1 else ark.G2Point


def _arkworks_add(kind: int) -> Callable[[bytes], Job]:
    """py_arkworks_bls12381: the sum of the input's two points (as the precompile, no
    subgroup check)."""
    def prepare(data: bytes) -> Job:
        group, half = _arkworks_group(kind), len(data) // 2
        p, q = (group.from_xy_bytes_unchecked_be(_unpadded(data[i:i + half]))
                for i in (0, half))
        return lambda: p + q
    return prepare


def _arkworks_msm(kind: int) -> Callable[[bytes], Job]:
    """py_arkworks_bls12381: the multi-scalar multiplication of (point, 32-byte scalar)
    pairs, the points checked on decoding as the precompile checks them."""
    def prepare(data: bytes) -> Job:
        import py_arkworks_bls12381 as ark
        group, point = _arkworks_group(kind), 128 * kind
        pairs = [data[i:i + point + 32] for i in range(0, len(data), point + 32)]
        points = [group.from_xy_bytes_be(_unpadded(pair[:point])) for pair in pairs]
        scalars = [ark.Scalar.from_be_bytes_mod_order(pair[point:]) for pair in pairs]
        return lambda: group.multiexp_unchecked(points, scalars)
    return prepare


def _arkworks_map(kind: int) -> Callable[[bytes], Job]:
    """py_arkworks_bls12381: the map of a field element (G1) or an Fp2 element (G2) to the
    curve, cofactor cleared."""
    def prepare(data: bytes) -> Job:
        group, element = _arkworks_group(kind), _unpadded(data)
        mapped = group.map_from_fp_be if kind == 1 else group.map_from_fp2_be
        return lambda: mapped(element)
    return prepare


def _coincurve_recover(data: bytes) -> Job:
    """coincurve (libsecp256k1): the public key from (h, v, r, s)."""
    import coincurve
    h, v, r, s = _ints(data, 32)
    signature = r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes([v - 27])
    digest = h.to_bytes(32, "big")
    return lambda: coincurve.PublicKey.from_signature_and_message(signature, digest,
                                                                   hasher=None)


def _cryptography_verify(data: bytes) -> Job:
    """cryptography (OpenSSL): ECDSA verification of (h, r, s, qx, qy), h prehashed."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    h, r, s, qx, qy = _ints(data, 32)
    key = ec.EllipticCurvePublicNumbers(qx, qy, ec.SECP256R1()).public_key()
    signature, digest = utils.encode_dss_signature(r, s), h.to_bytes(32, "big")
    algorithm = ec.ECDSA(utils.Prehashed(hashes.SHA256()))
    return lambda: key.verify(signature, digest, algorithm)


def _gmp_powmod(data: bytes) -> Job:
    """gmpy2 (GMP): powmod of the parsed base, exponent and modulus."""
    import gmpy2
    parsed = parse(data)
    if parsed is None:
        raise ValueError("not a MODEXP input")
    base, exponent, modulus = (gmpy2.mpz(v) for v in (parsed.base, parsed.exponent,
                                                        parsed.modulus))
    return lambda: gmpy2.powmod(base, exponent, modulus)


def _revm_call(address: int) -> Callable[[bytes], Job]:
    """pyrevm (revm, Rust): a message call to the precompile, the EVM's call overhead
    included (revm's Python binding has no other way to reach its precompiles)."""
    def prepare(data: bytes) -> Job:
        from pyrevm import EVM
        evm = EVM(spec_id="PRAGUE")
        caller, to = "0x" + "11" * 20, "0x" + address.to_bytes(20, "big").hex()
        return lambda: evm.message_call(caller=caller, to=to, calldata=data, gas=10_000_000)
    return prepare


# The precompiles whose job a library here does, by address (a precompile not here: none).
# pyblst, the wheel's, has no point addition, MSM or map, and pyrevm 0.3.7 no EIP-2537:
# arkworks does those (its wheels: Python 3.11+).
ARKWORKS = "py_arkworks_bls12381 (arkworks)"
NATIVES: Dict[int, Native] = {
    0x01: Native("coincurve (libsecp256k1)", "coincurve", _coincurve_recover),
    0x05: Native("gmpy2 (GMP)", "gmpy2", _gmp_powmod),
    0x06: Native("pyrevm (revm, a call)", "pyrevm", _revm_call(0x06)),
    0x07: Native("pyrevm (revm, a call)", "pyrevm", _revm_call(0x07)),
    0x08: Native("pyrevm (revm, a call)", "pyrevm", _revm_call(0x08)),
    0x0b: Native(ARKWORKS, "py_arkworks_bls12381", _arkworks_add(1)),
    0x0c: Native(ARKWORKS, "py_arkworks_bls12381", _arkworks_msm(1)),
    0x0d: Native(ARKWORKS, "py_arkworks_bls12381", _arkworks_add(2)),
    0x0e: Native(ARKWORKS, "py_arkworks_bls12381", _arkworks_msm(2)),
    0x0f: Native("pyblst (blst)", "pyblst", _blst_pairing_check),
    0x10: Native(ARKWORKS, "py_arkworks_bls12381", _arkworks_map(1)),
    0x11: Native(ARKWORKS, "py_arkworks_bls12381", _arkworks_map(2)),
    0x100: Native("cryptography (OpenSSL)", "cryptography", _cryptography_verify),
}


def precompile_address(precompile: Optional[str]) -> Optional[int]:
    """The address in a Usage's precompile name ("BLS12_G1ADD (0x0b)"), or None."""
    found = re.search(r"\((0x[0-9a-fA-F]+)", precompile or "")
    return int(found.group(1), 16) if found else None


def native_of(precompile: Optional[str]) -> Optional[Native]:
    """The library doing the job of ``precompile`` (a Usage's name), or None."""
    address = precompile_address(precompile)
    return None if address is None else NATIVES.get(address)


def installed(native: Native) -> bool:
    return importlib.util.find_spec(native.module) is not None
