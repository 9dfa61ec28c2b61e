"""The errors the command line reports as a message instead of a traceback, the argument
parser that reports its errors that way, and the one-line warning of an option that has
no effect."""
import argparse
import sys
from typing import NoReturn


class CliError(Exception):
    """Bad input from the user (hex, file, contract name, option): exit code 2."""
    exit_code = 2


class RunFailed(CliError):
    """A run the command needed failed (a revert or an exceptional halt): exit code 1."""
    exit_code = 1


class Parser(argparse.ArgumentParser):
    """argparse's errors as CliError, so that they read like every other input error."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see: {self.prog} --help)")


def warn(message: str) -> None:
    """One line on stderr about an option that changes nothing; the command goes on."""
    print(f"evm384: warning: {message}", file=sys.stderr)


def not_applied(option: str, value: str, opcodes: str, prices: str) -> str:
    """The warning of a pricing ``option`` given ``value`` for a run of the opcode set
    ``opcodes``, whose instructions it does not price (it prices ``prices``')."""
    return (f"{option} {value} does not apply to {opcodes.upper()} runs (it prices "
            f"{prices.upper()}'s instructions); ignored")
