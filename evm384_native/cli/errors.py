"""The one error the command line reports as a message instead of a traceback."""


class CliError(Exception):
    """Bad input from the user (hex, file, contract name, option): exit code 2."""
