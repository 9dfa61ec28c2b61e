"""The errors the command line reports as a message instead of a traceback, and the
argument parser that reports its errors that way."""
import argparse
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
