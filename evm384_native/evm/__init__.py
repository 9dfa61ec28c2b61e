"""A thin EVM interpreter for standalone contract code with the EVM384 opcodes."""
