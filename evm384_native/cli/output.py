"""Where a command's result goes: stdout, or the file of ``--out``."""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Union


def add_output_arguments(parser: argparse.ArgumentParser, binary: bool = True) -> None:
    parser.add_argument("--out", metavar="FILE", help="write to FILE (default stdout)")
    if binary:
        parser.add_argument("--binary", action="store_true",
                            help="raw bytes instead of hex text")


def write(data: Union[bytes, str], path: Optional[str]) -> None:
    """Text or bytes to ``path``, or to stdout. Errors (a full disk, a closed pipe) raise
    OSError, which ``main`` reports in one line."""
    raw = data if isinstance(data, bytes) else data.encode()
    if path is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return
    with open(path, "wb") as stream:
        stream.write(raw)


def hex_or_binary(data: bytes, binary: bool) -> Union[bytes, str]:
    return data if binary else data.hex() + "\n"
