"""The EVM384 and EVMMAX arithmetic as kernels: native C (:mod:`.kernel`, :mod:`.modx`) and
pure Python with the same behaviour (:mod:`.reference`, :mod:`.modx_reference`), with what they
share: limb and byte encodings (:mod:`.limbs`), operand checks (:mod:`.operands`), Montgomery
helpers (:mod:`.montgomery`), EVMMAX's limits and API (:mod:`.modx_common`) and the Fp2
product's shape (:mod:`.fp2_shape`).

The interpreter around them (:mod:`evm384_native.evm`) runs on these kernels; they import
nothing of it, so that a kernel module stays usable on its own.
"""
