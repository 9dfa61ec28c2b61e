"""The commit a report (or a benchmark's table, bench/machine.py) was made at."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]       # the checkout, where there is one


def commit() -> str:
    """The checkout's short commit, marked when the package's files differ from it, or
    "unknown" (an installed wheel is no checkout)."""
    try:
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--",
                                "evm384_native"], capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" (evm384_native modified)" if dirty.strip() else "")
