"""The field tower, curve arithmetic and pairing as EVM code, written once over two axes
handed in as data: the curve (:mod:`evm384_native.curves`) and the instruction-set target
(:mod:`.target`). No module here names a curve."""
