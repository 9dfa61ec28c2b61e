#!/usr/bin/env python3
"""atheris target: see fuzz/atheris_harness.py (run with the repository root on PYTHONPATH)."""
from fuzz.atheris_harness import kernels_input, main

if __name__ == "__main__":
    main(kernels_input)
