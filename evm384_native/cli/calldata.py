"""``evm384 calldata CONTRACT``: a built-in contract's calldata from points given as hex,
or from ``--random K`` points (a true or a false relation), each contract making its
own encoding (``evm384_native.contracts.USAGE``: each curve's ``usage`` module)."""
from __future__ import annotations

import argparse
import random

from ..contracts import CONTRACTS, USAGE
from .errors import CliError
from .inputs import FILE_RULES, contract_name, load_bytes
from .output import add_output_arguments, hex_or_binary, write


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calldata", help="a contract's calldata from points (hex) or random ones",
        description="Points are hex or @FILE (hex text), in the order the contract takes "
                    "them, big-endian affine coordinates; for the pairing contracts G1 G2 "
                    "[G1 G2 ...]: BLS12-381, a G1 point as 96 bytes x||y and a G2 point as "
                    "192 bytes x.c0||x.c1||y.c0||y.c1; BN254 (bn254_*, EIP-197), 64 bytes "
                    "x||y and 128 bytes x.im||x.re||y.im||y.re. The hinted checks' hint is "
                    f"computed and appended. Contracts: {', '.join(CONTRACTS)}. "
                    f"{FILE_RULES}. --random BLS12-381 points are made by blst (pyblst), "
                    "BN254 ones in Python.")
    parser.add_argument("contract", metavar="CONTRACT", help="a contract name (or contract:NAME)")
    parser.add_argument("points", metavar="POINT", nargs="*", help="hex or @FILE")
    parser.add_argument("--random", type=int, metavar="K",
                        help="K random inputs (pairs, MSM terms) instead of POINTs; 1 for "
                             "the contracts that take one input (a signature, two points to "
                             "add, ...)")
    parser.add_argument("--seed", type=int, help="random seed for --random (default: fresh)")
    parser.add_argument("--false", action="store_true",
                        help="with --random: a false relation (default: the pairing product "
                             "is one)")
    add_output_arguments(parser)
    parser.set_defaults(func=command)


def example_calldata(name: str, rng: random.Random, k: int, true: bool) -> bytes:
    """Calldata of ``k`` random inputs for contract ``name`` (CliError if it cannot be made,
    or if the contract takes one input and ``k`` asks for more)."""
    usage = USAGE.get(name)
    if usage is None:
        raise CliError(f"contract {name!r} declares no example input")
    if usage.one_input and k > 1:
        raise CliError(f"{name} takes one input ({usage.points}), so --random {k} would "
                       "still make one: give --random 1")
    try:
        return usage.example(rng, k, true)
    except ValueError as error:
        raise CliError(f"{name}: {error}") from None


def command(args: argparse.Namespace) -> int:
    name = contract_name(args.contract)
    usage = USAGE.get(name)
    if usage is None:
        raise CliError(f"contract {name!r} declares no input encoding")
    if (args.random is None) == (not args.points):
        raise CliError("give POINTs or --random K (one of them)")
    if args.false and not usage.relation:
        raise CliError(f"{name} checks no relation: --false does not apply")
    if args.random is not None:
        if args.random < 1:
            raise CliError(f"--random must be at least 1, got {args.random}")
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
        calldata = example_calldata(name, random.Random(seed), args.random, not args.false)
    else:
        if args.false or args.seed is not None:
            raise CliError("--seed and --false go with --random")
        points = [load_bytes(text, f"point {i + 1}") for i, text in enumerate(args.points)]
        try:
            calldata = usage.from_points(points)
        except ValueError as error:
            raise CliError(f"{name} takes {usage.points}: {error}") from None
    write(hex_or_binary(calldata, args.binary), args.out)
    return 0
