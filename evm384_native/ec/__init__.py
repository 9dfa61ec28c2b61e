"""Elliptic-curve code over any short-Weierstrass curve y^2 = x^3 + a x + b, generic over
the Emitter (:class:`evm384_native.tower.fp.Emitter`: the instruction-set target and the
curve's description, :mod:`evm384_native.curves`): groups and their additions, the point
formulas of a = -3 curves, and scalar multiplication by windows and GLV. It builds on the
field tower (:mod:`evm384_native.tower`), which never imports it; no module here names a
curve."""
