"""What a benchmark's report says about where it ran: the CPU and the commit. Shared by the
table scripts (``python bench/<name>.py`` puts bench/ on the import path)."""
from __future__ import annotations

import platform
import subprocess

from evm384_native.report.commit import commit as git_revision  # noqa: F401  (the tables' commit)


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
