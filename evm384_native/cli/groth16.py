"""``evm384 groth16 build|calldata|verify``: a Groth16 verifier contract for a snarkjs
verification key (:mod:`evm384_native.groth16`), its calldata for a proof, and a run of
it beside the precompile-based verifier: for BLS12-381 the EIP-2537 verifier run in
py-evm at Prague (with the ``pyevm`` extra), for BN254 what its precompile calls cost."""
from __future__ import annotations

import argparse
from typing import Callable, List, TypeVar

from ..evm.transaction import call_cost
from ..groth16 import (Proof, VerifyingKey, build_verifier, encode_calldata,
                       public_inputs_from_snarkjs)
from ..groth16.eip2537_verifier import anchor_calldata, build_eip2537_verifier
from ..groth16.verifier import TARGETS
from .errors import CliError, Parser, RunFailed
from .output import add_output_arguments, hex_or_binary, write

T = TypeVar("T")
# EIP-1108's prices of the precompile-based verifier's calls: one ECPAIRING of four pairs,
# an ECMUL and an ECADD per public input
PAIRING_4, ECMUL_ECADD = 45_000 + 4 * 34_000, 6_000 + 150
# the precompile-based verifiers this package builds and runs, by curve: (code, calldata)
ANCHORS = {"bls12_381": (build_eip2537_verifier, anchor_calldata)}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "groth16", help="a Groth16 verifier for a snarkjs key: build, calldata, verify",
        description="A Groth16 verifier contract per verification key (BN254 or "
                    "BLS12-381), from the "
                    "hinted pairing check. Files are snarkjs's verification_key.json, "
                    "proof.json and public.json.")
    commands = parser.add_subparsers(dest="groth16_command", required=True, metavar="COMMAND",
                                     parser_class=Parser)
    build = commands.add_parser("build", help="the verifier's bytecode (hex)")
    build.add_argument("key", metavar="VK.json")
    _target(build)
    add_output_arguments(build)
    build.set_defaults(func=_build)
    calldata = commands.add_parser("calldata", help="the verifier's calldata (hex): proof, "
                                                    "public inputs, hint")
    _files(calldata)
    add_output_arguments(calldata)
    calldata.set_defaults(func=_calldata)
    verify = commands.add_parser("verify", help="run the verifier: its answer and gas beside "
                                                "the precompile-based verifier's calls")
    _files(verify)
    _target(verify)
    verify.add_argument("--engine", choices=("fast", "python"), default="fast")
    verify.set_defaults(func=_verify)


def _target(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", choices=TARGETS, default="evmmax",
                        help="the instruction set: EVMMAX (EIP-6690, default) or EVM384")


def _files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", metavar="VK.json")
    parser.add_argument("proof", metavar="PROOF.json")
    parser.add_argument("public", metavar="PUBLIC.json")


def _read(what: str, reader: Callable[[str], T], path: str) -> T:
    try:
        return reader(path)
    except ValueError as error:
        raise CliError(f"{what} {path}: {error}") from None


def _inputs(args: argparse.Namespace):
    key = _read("verification key", VerifyingKey.from_snarkjs, args.key)
    proof = _read("proof", Proof.from_snarkjs, args.proof)
    public: List[int] = _read("public inputs", public_inputs_from_snarkjs, args.public)
    try:
        data = encode_calldata(key, proof, public)
    except ValueError as error:
        raise CliError(f"cannot make the calldata: {error}") from None
    return key, proof, public, data


def _verifier(key: VerifyingKey, target: str) -> bytes:
    try:
        return build_verifier(key, target=target)
    except ValueError as error:
        raise CliError(str(error)) from None


def _build(args: argparse.Namespace) -> int:
    key = _read("verification key", VerifyingKey.from_snarkjs, args.key)
    write(hex_or_binary(_verifier(key, args.target), args.binary), args.out)
    return 0


def _calldata(args: argparse.Namespace) -> int:
    data = _inputs(args)[-1]
    write(hex_or_binary(data, args.binary), args.out)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from .. import execute
    key, proof, public, data = _inputs(args)
    result = execute(_verifier(key, args.target), data, opcodes=args.target,
                     engine=args.engine, gas=30_000_000)
    if not result.success:
        raise RunFailed(f"the verifier halted: {result.error or 'REVERT'}")
    answer = int.from_bytes(result.output, "big")
    ours = call_cost(result.gas_used, data)
    print(f"answer: {answer} ({'accepted' if answer == 1 else 'rejected'})")
    print(f"gas ({args.target}): execution {result.gas_used:,} + calldata {ours.calldata:,} "
          f"+ access {ours.access:,} = {ours.total:,}")
    if key.curve in ANCHORS:
        _anchor(key, proof, public, ours.total)
        return 0
    calls = PAIRING_4 + ECMUL_ECADD * key.inputs
    print(f"precompile-based verifier: its precompile calls alone cost {calls:,} (EIP-1108: "
          f"ECPAIRING of 4 pairs, ECMUL + ECADD per input; its total, measured in "
          f"bench/results/groth16.md, adds ~9,000-13,000 of execution and calldata and "
          f"2,600 access)")
    return 0


def _anchor(key: VerifyingKey, proof: Proof, public: List[int], ours: int) -> None:
    """The precompile-based verifier run in py-evm at Prague: its answer and cost."""
    try:
        from eth.vm.forks import PragueVM
        from ..integrations.pyevm import execute_in_pyevm
    except ImportError:
        print("precompile-based verifier (EIP-2537): needs py-evm to run "
              "(pip install 'evm384_native[pyevm]')")
        return
    build, calldata = ANCHORS[key.curve]
    data = calldata(key, proof, public)
    result = execute_in_pyevm(build(key), data, vm_class=PragueVM)
    if not result.success:
        raise RunFailed(f"the precompile-based verifier halted: {result.error}")
    cost = call_cost(result.gas_used, data)
    print(f"precompile-based verifier (EIP-2537, py-evm at Prague): answer "
          f"{int.from_bytes(result.output, 'big')}, execution {cost.execution:,} + calldata "
          f"{cost.calldata:,} + access {cost.access:,} = {cost.total:,}; ours "
          f"{ours / cost.total:.3f}x")
