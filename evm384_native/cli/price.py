"""``evm384 price``: gas prices fitted from time measured on this machine (EIP-7904's
method): whole programs timed on an engine, ns per operation by NNLS at each EVMMAX limb
count and for EVM384 and EVM768, gas at a throughput anchor, and the contracts and the adversarial
EVMMAX programs repriced with it beside EIP-6690's and EIP-7747's tables."""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from ..pricing.anchor import DEFAULT_MGAS_PER_S, Anchor
from ..pricing.measure import DEFAULT, ENGINES, QUICK
from ..pricing.plot import plot, require_matplotlib
from ..pricing.report import price, render
from .errors import CliError
from .output import write


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "price", help="fit EVMMAX, EVM384 and EVM768 gas prices from time measured here",
        description="Times programs whose counts of each EVMMAX operation (1..12 limbs), "
                    "EVM384 and EVM768 operation vary, fits ns per operation by non-negative least "
                    "squares, prices them at a throughput anchor (gas = ceil(ns / ns per "
                    "gas), at least 1), and reprices every contract on each target it is "
                    "built for and the adversarial EVMMAX programs (EVMMAX: under EIP-6690, "
                    "EIP-7747 and the fitted table; EVM384: under its schedules and the "
                    "fitted one; EVM768: fitted beside each schedule's per-limb model). "
                    "A default run takes about a minute on the fast engine; keep the machine "
                    "otherwise idle.")
    anchor = parser.add_mutually_exclusive_group()
    anchor.add_argument("--mgas-per-s", type=float, metavar="M",
                        help=f"the anchor in Mgas/s (default {DEFAULT_MGAS_PER_S:g}, as "
                             "EIP-7904)")
    anchor.add_argument("--ns-per-gas", type=float, metavar="N",
                        help="the anchor as the ns one gas buys")
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=["fast"],
                        help="engines to measure (default fast); the table is priced from "
                             "the first")
    parser.add_argument("--quick", action="store_true",
                        help="few programs, one run each: a smoke test, not a measurement")
    parser.add_argument("--seed", type=int, default=DEFAULT.seed,
                        help=f"seed of the programs' design (default {DEFAULT.seed})")
    parser.add_argument("--json", action="store_true", help="the report as one JSON object")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="plot ns per operation and the contracts' Mgas/s (matplotlib)")
    parser.add_argument("--out", metavar="FILE", help="write to FILE (default stdout)")
    parser.set_defaults(func=command)


def _anchor(args: argparse.Namespace) -> Anchor:
    try:
        if args.ns_per_gas is not None:
            return Anchor(args.ns_per_gas)
        return Anchor.from_mgas_per_s(args.mgas_per_s if args.mgas_per_s is not None
                                      else DEFAULT_MGAS_PER_S)
    except ValueError as error:
        raise CliError(str(error)) from None


def _progress(message: str) -> None:
    print(f"evm384 price: {message}", file=sys.stderr, flush=True)


def command(args: argparse.Namespace) -> int:
    anchor = _anchor(args)
    if args.plot:
        try:
            require_matplotlib()          # before minutes of measuring, not after
        except ImportError as error:
            raise CliError(str(error)) from None
    engines = list(dict.fromkeys(args.engines))
    settings = dataclasses.replace(QUICK if args.quick else DEFAULT, seed=args.seed)
    report = price(engines, anchor, settings, quick=args.quick,
                   progress=_progress if sys.stderr.isatty() else lambda _: None)
    write(json.dumps(report) + "\n" if args.json else render(report), args.out)
    if args.plot:
        plot(report, args.plot)
    return 0
