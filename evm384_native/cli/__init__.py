"""The ``evm384`` command line: run, trace, disassemble, profile and step through EVM384
bytecode, and the main pairing job. ``main.py`` wires the subcommands; each other module
does one job."""
