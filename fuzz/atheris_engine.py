#!/usr/bin/env python3
"""atheris target: see fuzz/atheris_harness.py (run with the repository root on PYTHONPATH)."""
from fuzz.atheris_harness import engine_input, main

if __name__ == "__main__":
    main(engine_input)
