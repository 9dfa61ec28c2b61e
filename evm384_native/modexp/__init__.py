"""MODEXP (precompile 0x05) as EVM bytecode for EIP-8200: the contract ``modexp`` for plain
EVM and EVMMAX (:mod:`.contracts`), the precompile's answer and prices
(:mod:`.reference`)."""
