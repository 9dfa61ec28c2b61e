"""RISC Zero's Groth16 key and the receipt of its tests (tests/vectors/groth16/risc0/
SOURCE.md), and the public inputs its on-chain verifier computes, in Python: for the tests
and the benchmark.

RiscZeroGroth16Verifier.verify(seal, imageId, journalDigest) checks the Groth16 proof in
the seal for five public inputs: CONTROL_ROOT's two 128-bit halves, the claim digest's two
halves (each digest's bytes reversed and read as a uint256, low half first), and
BN254_CONTROL_ID as one word. The claim is ReceiptClaimLib.ok(imageId, sha256(journal)),
hashed as RISC Zero's tagged structs (StructHash.sol)."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import List, Sequence, Tuple

from evm384_native import groth16

FOLDER = Path(__file__).parent / "vectors" / "groth16" / "risc0"
CONTROL, RECEIPT = FOLDER / "ControlID.sol", FOLDER / "TestReceiptV5_0.sol"


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def tagged(tag: str, down: Sequence[bytes], data: bytes = b"") -> bytes:
    """RISC Zero's tagged struct digest: sha256(sha256(tag) || down || data || len(down)
    as a little-endian u16)."""
    return sha256(sha256(tag.encode()) + b"".join(down) + data
                  + len(down).to_bytes(2, "little"))


def hex_constant(path: Path, name: str) -> bytes:
    """A Solidity ``name = hex"..."`` constant of the file."""
    return bytes.fromhex(re.search(name + r'\s*=\s*hex"([0-9a-f]*)"', path.read_text()).group(1))


def split_digest(digest: bytes) -> Tuple[int, int]:
    """RiscZeroGroth16Verifier.splitDigest: the digest's bytes reversed as a uint256, low
    128 bits first."""
    return int.from_bytes(digest[:16], "little"), int.from_bytes(digest[16:], "little")


def public_inputs(image_id: bytes = b"", journal: bytes = b"") -> List[int]:
    """The five public inputs for ReceiptClaimLib.ok(image_id, sha256(journal)) (default:
    the test receipt's)."""
    image_id = image_id or hex_constant(RECEIPT, "IMAGE_ID")
    journal = journal or hex_constant(RECEIPT, "JOURNAL")
    state_zero = tagged("risc0.SystemState", [bytes(32)], bytes(4))
    output = tagged("risc0.Output", [sha256(journal), bytes(32)])
    claim = tagged("risc0.ReceiptClaim", [bytes(32), image_id, state_zero, output], bytes(8))
    control_id = hex_constant(CONTROL, "BN254_CONTROL_ID")
    return [*split_digest(hex_constant(CONTROL, "CONTROL_ROOT")), *split_digest(claim),
            int.from_bytes(control_id, "big")]


def seal() -> Tuple[bytes, groth16.Proof]:
    """TestReceipt.SEAL: its 4-byte selector, and the proof abi.encode(a, b, c) holds (b
    in EIP-197's order: x.c1, x.c0, y.c1, y.c0)."""
    data = hex_constant(RECEIPT, "SEAL")
    w = [int.from_bytes(data[4 + 32 * i:36 + 32 * i], "big") for i in range(8)]
    return data[:4], groth16.Proof(a=(w[0], w[1]), b=((w[3], w[2]), (w[5], w[4])),
                                   c=(w[6], w[7]))


def key() -> groth16.VerifyingKey:
    """The key: the constants of its Groth16Verifier.sol."""
    return groth16.VerifyingKey.from_snarkjs_solidity(FOLDER / "Groth16Verifier.sol")
