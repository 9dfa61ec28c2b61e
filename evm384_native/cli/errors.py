"""The one error the command line reports as a message instead of a traceback, and the
argument parser that reports its errors that way."""
import argparse
from typing import NoReturn


class CliError(Exception):
    """Bad input from the user (hex, file, contract name, option): exit code 2."""


class Parser(argparse.ArgumentParser):
    """argparse's errors as CliError, so that they read like every other input error."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see: {self.prog} --help)")
