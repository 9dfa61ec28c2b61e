"""``evm384 pairing``: the main job, the EVM384 two-pairing check beside blst; every option
goes to ``python -m evm384_native.bls12_381`` (``evm384 pairing --help`` lists them)."""
from __future__ import annotations

import argparse

from ..bls12_381.__main__ import main as pairing_main
from .errors import Parser


def register(subparsers: argparse._SubParsersAction) -> None:
    # no help option of its own: --help and the rest go through to the job's parser
    parser = subparsers.add_parser("pairing", add_help=False,
                                   help="the main job: pairing check beside blst")
    parser.set_defaults(func=command, passes_options=True)


def command(args: argparse.Namespace) -> int:
    return pairing_main(args.rest, prog="evm384 pairing", parser_class=Parser)
