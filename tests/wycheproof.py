"""Wycheproof's ECDSA verification vectors for secp256r1 and secp256k1 (tests/vectors/wycheproof,
SOURCE.md there), read as the EVM signature interfaces take them: a 32-byte hash h and the
words r and s.

A vector's message is hashed with its group's hash function and h is its leftmost 256 bits
(ECDSA's bits2int for a 256-bit group order). Its signature is r || s (IEEE P1363) or an ASN.1
DER sequence of two integers. A signature that the 32-byte words cannot carry (a P1363 string
of another length, a DER encoding that is not strict DER, an r or s of 2^256 or more) has no
precompile input: such a vector is returned with ``words`` None and the reason, and Wycheproof
must call it invalid."""
from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import List, Optional, Tuple

FOLDER = Path(__file__).parent / "vectors" / "wycheproof"
CURVES = ("secp256r1", "secp256k1")
WORD_LIMIT = 1 << 256


@dataclass(frozen=True)
class Vector:
    file: str
    tc_id: int
    comment: str
    flags: Tuple[str, ...]
    public_key: Tuple[int, int]
    message: bytes
    h: int
    words: Optional[Tuple[int, int]]    # (r, s), or None: not expressible as two words
    unexpressible: str                  # why ``words`` is None, else ""
    valid: bool                         # Wycheproof's verdict
    # the bitcoin variant's verdict adds a rule that ECDSA, ECRECOVER and P256VERIFY do not
    # have: s <= n / 2 (its high-s vectors are invalid there whatever ECDSA says)
    low_s_rule: bool

    @property
    def name(self) -> str:
        return f"{self.file}#{self.tc_id} ({self.comment})"


def files(curve: str) -> List[Path]:
    paths = sorted(FOLDER.glob(f"ecdsa_{curve}_*_test.json.gz"))
    assert paths, f"no Wycheproof vectors for {curve} in {FOLDER}"
    return paths


HASHES = {"SHA-256": hashlib.sha256, "SHA-512": hashlib.sha512, "SHA3-256": hashlib.sha3_256,
          "SHA3-512": hashlib.sha3_512}
# XOFs: the first 32 bytes of their 256- or 512-bit outputs alike
XOFS = {"SHAKE128": hashlib.shake_128, "SHAKE256": hashlib.shake_256}


def digest(hash_name: str, message: bytes) -> int:
    """h: the leftmost 256 bits of the message's hash (every hash here has at least 256)."""
    if hash_name in XOFS:
        raw = XOFS[hash_name](message).digest(32)
    else:
        raw = HASHES[hash_name](message).digest()
    return int.from_bytes(raw[:32], "big")


def _der_length(data: bytes, at: int) -> Tuple[int, int]:
    """(length, offset after it) of a strict DER length at ``at``; ValueError otherwise."""
    if at >= len(data):
        raise ValueError("truncated length")
    first = data[at]
    if first < 0x80:
        return first, at + 1
    count = first & 0x7F
    if count == 0 or at + 1 + count > len(data):
        raise ValueError("indefinite or truncated length")
    value = int.from_bytes(data[at + 1:at + 1 + count], "big")
    if data[at + 1] == 0 or value < 0x80:
        raise ValueError("non-minimal length")
    return value, at + 1 + count


def _der_integer(data: bytes, at: int) -> Tuple[int, int]:
    if at >= len(data) or data[at] != 0x02:
        raise ValueError("not an INTEGER")
    length, at = _der_length(data, at + 1)
    body = data[at:at + length]
    if length == 0 or len(body) != length:
        raise ValueError("empty or truncated INTEGER")
    if body[0] & 0x80:
        raise ValueError("negative INTEGER")
    if length > 1 and body[0] == 0 and not body[1] & 0x80:
        raise ValueError("non-minimal INTEGER")
    return int.from_bytes(body, "big"), at + length


def parse_der(signature: bytes) -> Tuple[int, int]:
    """(r, s) of a strict DER ECDSA signature; ValueError for anything else."""
    if not signature or signature[0] != 0x30:
        raise ValueError("not a SEQUENCE")
    length, at = _der_length(signature, 1)
    if at + length != len(signature):
        raise ValueError("the SEQUENCE's length is not the signature's")
    r, at = _der_integer(signature, at)
    s, at = _der_integer(signature, at)
    if at != len(signature):
        raise ValueError("bytes after the two INTEGERs")
    return r, s


def _signature_words(encoding: str, signature: bytes) -> Tuple[Optional[Tuple[int, int]], str]:
    if encoding == "p1363":
        if len(signature) != 64:
            return None, f"a P1363 signature of {len(signature)} bytes, not 64"
        return (int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")), ""
    try:
        r, s = parse_der(signature)
    except ValueError as error:
        return None, f"not strict DER: {error}"
    if r >= WORD_LIMIT or s >= WORD_LIMIT:
        return None, "r or s of 2^256 or more"
    return (r, s), ""


@lru_cache(maxsize=None)
def vectors(curve: str) -> Tuple[Vector, ...]:
    """Every ECDSA verification vector of ``curve`` ("secp256r1" or "secp256k1")."""
    return tuple(_read(curve))


def _read(curve: str):
    for path in files(curve):
        document = json.loads(gzip.decompress(path.read_bytes()))
        encoding = "p1363" if "p1363" in document["schema"] else "der"
        low_s_rule = "bitcoin" in document["schema"]
        for group in document["testGroups"]:
            assert group["publicKey"]["curve"] == curve, path.name
            point = bytes.fromhex(group["publicKey"]["uncompressed"])
            assert point[0] == 4 and len(point) == 65, path.name
            key = (int.from_bytes(point[1:33], "big"), int.from_bytes(point[33:], "big"))
            for test in group["tests"]:
                assert test["result"] in ("valid", "invalid"), (path.name, test["tcId"])
                message = bytes.fromhex(test["msg"])
                words, why = _signature_words(encoding, bytes.fromhex(test["sig"]))
                yield Vector(path.name[:-len(".json.gz")], test["tcId"], test["comment"],
                             tuple(test["flags"]), key, message, digest(group["sha"], message),
                             words, why, test["result"] == "valid", low_s_rule)
