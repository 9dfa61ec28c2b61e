"""Elliptic-curve code over any short-Weierstrass curve y^2 = x^3 + a x + b, generic over
the Emitter (:class:`evm384_native.tower.fp.Emitter`: the instruction-set target and the
curve's description, :mod:`evm384_native.curves`): groups, their curve checks and
additions (:mod:`.groups`), the point formulas of a = -3 curves (:mod:`.a_minus_3`), and
scalar multiplication by regular windows (:mod:`.windows`, :mod:`.odd_multiples`) and GLV
(:mod:`.glv`, :mod:`.glv_multiply`). It builds on the field tower
(:mod:`evm384_native.tower`), which never imports it; the code here reads a curve's numbers
from the description it is handed only."""
