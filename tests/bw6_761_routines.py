"""Running k = 6 tower routines over BW6-761 as EVMMAX programs
(tests/tower_routines.py's run_on_target): inputs as 96-byte big-endian calldata values,
outputs as 96-byte big-endian values; and the map between the tower's slot order and the
reference's polynomials in w."""
from evm384_native.curves.bw6_761 import BW6_761

import tower_routines

VALUE = 96


def run_routine(build, inputs, out_kind, engine="fast"):
    """build(e, out, *input slots); inputs [(slot type, values)]; the output's values."""
    return tower_routines.run_on_target(BW6_761, build, inputs, out_kind, target="evmmax",
                                      value_bytes=VALUE, little_endian=False,
                                      out_word=VALUE, engine=engine)


def to_poly(values):
    """Tower values (slot order c0.c0 c0.c1 c0.c2 c1.c0 c1.c1 c1.c2; fewer for Fp3) as a
    polynomial in w: c_j.c_i multiplies w^(2 i + j)."""
    out = [0] * 6
    for index, v in enumerate(values):
        j, i = divmod(index, 3)
        out[2 * i + j] = v
    return out


def from_poly(poly):
    return [poly[2 * i + j] for j in range(2) for i in range(3)]
