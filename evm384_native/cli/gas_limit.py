"""``--gas``, the gas limit of every command that runs code (the ``evm384`` subcommands and
the main job), and how a command says that a run failed instead of showing a cost: a run
that halts exceptionally uses all its gas, so its gas used is the limit, not what the job
costs."""
from __future__ import annotations

import argparse
from typing import Optional

from ..evm.gas import MAX_GAS
from ..evm.halts import OutOfGas


def gas_limit(text: str) -> int:
    """``--gas``'s value: an int in [0, 2**63), as every engine takes."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an int: {text!r}") from None
    if not 0 <= value <= MAX_GAS:
        raise argparse.ArgumentTypeError(f"must be in [0, 2**63), got {value}")
    return value


def add_gas_argument(parser: argparse.ArgumentParser, default: Optional[int],
                     default_is: str = "") -> None:
    """``--gas N``, defaulting to ``default``; None: the command picks the limit, as
    ``default_is`` says."""
    parser.add_argument("--gas", type=gas_limit, default=default, metavar="N",
                        help=f"gas limit of each run (default {default_is or f'{default:,}'})")


def failure_text(error: str, limit: int) -> str:
    """Why a failed run has no cost to show: its ``error`` (an execution result's), with
    the limit when it ran out of gas."""
    if error == OutOfGas.reason:
        return f"{error} at the gas limit {limit:,} (--gas)"
    return error
