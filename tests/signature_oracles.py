"""The signature precompiles' independent oracles, shared by the contract tests: OpenSSL's
ECDSA verification (``cryptography``, both curves) and libsecp256k1's public-key recovery
(coincurve) as ECRECOVER answers. Each skips its caller where its extra is absent."""
from typing import Callable, Tuple

from evm384_native.evm.keccak import keccak256
from evm384_native.secp256k1 import reference as secp256k1
from optional import require

Point = Tuple[int, int]


def openssl_verifier() -> Callable[[str, Point, int, int, int], bool]:
    """verify(curve, key, h, r, s): OpenSSL's verdict on the signature (r, s) of the 32-byte
    hash h under the public key ``key``, for curve "secp256r1" or "secp256k1"."""
    require("cryptography", "test")
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    curves = {"secp256r1": ec.SECP256R1(), "secp256k1": ec.SECP256K1()}

    def verify(curve: str, key: Point, h: int, r: int, s: int) -> bool:
        public = ec.EllipticCurvePublicNumbers(*key, curves[curve]).public_key()
        try:
            # Prehashed(SHA256) takes any 32-byte digest: h is the hash, whichever made it
            public.verify(utils.encode_dss_signature(r, s), h.to_bytes(32, "big"),
                          ec.ECDSA(utils.Prehashed(hashes.SHA256())))
            return True
        except InvalidSignature:
            return False
    return verify


def coincurve_recoverer() -> Callable[[bytes], bytes]:
    """recover(data): ECRECOVER's output on ``data`` by libsecp256k1, after the precompile's
    own checks (v a full word 27 or 28, 0 < r, s < n) that libsecp256k1 does not make."""
    require("coincurve", "test")
    import coincurve

    def recover(data: bytes) -> bytes:
        h, v, r, s = secp256k1.words(data)
        if v not in (27, 28) or not (0 < r < secp256k1.N and 0 < s < secp256k1.N):
            return b""
        signature = r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes([v - 27])
        try:
            public = coincurve.PublicKey.from_signature_and_message(
                signature, h.to_bytes(32, "big"), hasher=None)
        except Exception:                        # no key: the precompile's empty output
            return b""
        return bytes(12) + keccak256(public.format(compressed=False)[1:])[12:]
    return recover
