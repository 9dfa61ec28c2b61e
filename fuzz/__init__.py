"""Fuzzing evm384_native: a seeded differential fuzzer over every engine and backend
(``python -m fuzz``), a thread stress with many schedules, the EIP-2537 contract against
py-evm's precompile, the BN254 contracts against py-evm's and revm's
precompiles 0x06-0x08, and a coverage-guided harness (``fuzz/atheris_harness.py``).
See fuzz/README.md."""
