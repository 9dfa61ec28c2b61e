"""The ``evm384`` command line: run, trace, disassemble, profile and step through EVM384
bytecode; build the BLS12-381 and BN254 contracts (:mod:`evm384_native.contracts`), their
calldata and gas table; the main pairing job. ``main.py`` wires the subcommands; each other
module does one job."""
