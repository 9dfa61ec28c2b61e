"""What a benchmark's report says about where it ran: the CPU and the commit. Shared by the
table scripts (``python bench/<name>.py`` puts bench/ on the import path)."""
from __future__ import annotations

import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu_model() -> str:
    """``lscpu``'s model name (else what the platform module knows)."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or "unknown"


def git_revision() -> str:
    """The short commit, marked when the package's files differ from it."""
    try:
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--",
                                "evm384_native"], capture_output=True, text=True).stdout.strip()
        return rev + (" (evm384_native modified)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
