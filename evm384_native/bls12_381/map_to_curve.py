"""EIP-2537's mappings of a field element to a curve point (precompiles 0x10, Fp to G1, and
0x11, Fp2 to G2) as EVM384 code: the simplified SWU map to a curve E' isogenous to E, the
isogeny to E (11-isogeny for G1, 3-isogeny for G2) and cofactor clearing, as in RFC 9380
and the EIP's notes (field_to_curve.md, whose parameters are below).

SWU (RFC 9380 6.6.2): t = Z u^2, x1 = (-B/A) (1 + 1 / (t^2 + t)), or B / (Z A) when
t^2 + t = 0; if g(x1) is a square, (x1, sqrt(g(x1))), else (x2, sqrt(g(x2))) with x2 = t x1
(then g(x2) = t^3 g(x1) is a square). The sign of y is then set so that sgn0(y) = sgn0(u)
(RFC 9380 4.1: parity of the canonical value; for Fp2, of c0, or of c1 when c0 = 0), which
makes the answer independent of which square root was found. No inversion: x1 = xn / xd
and g(x1) = n / m (m = xd^3) as fractions (RFC 9380 F.2), and one power
w = (n m^3)^((p-3)/4) gives both sqrt(+-n / m) = n m w (F.2.1.2's sqrt_ratio) and
chi / m = n m^2 w^2 (chi = +-1 the quadratic character of n / m), so the point on E' is
affine after a few products.

- Fp (p = 3 mod 4): that power; for x2, sqrt(g(x2)) = sqrt(-g(x1)) u^3 Z sqrt(-Z): one
  exponentiation in all.
- Fp2: a = a0 + a1 i is a square iff its norm is a square in Fp: sqrt_ratio on the norms
  N(n) / N(m) (1 / m = conj(m) / N(m)); for x2, N(g(x2)) = 125 N(u)^6 N(g(x1)). Then with
  s^2 = N(a) and d = (a0 + s) / 2, w = d^((p-3)/4): sqrt(a) = d w + (a1 w / 2) i if d is
  a square, else (a1 w / 2) - d w i: two exponentiations of Fp in all.

Isogeny: x = x_num(x') / x_den(x'), y = y' y_num(x') / y_den(x'), written directly in
Jacobian coordinates (Z = x_den y_den, X = x_num y_den Z, Y = y' y_num x_den Z^2): no
inversion, and a zero denominator gives Z = 0, the point at infinity, as the RFC requires.

Cofactor clearing, for a point that need not be in any subgroup: the multiplications run
on the point's isomorphic curve with mixed additions (madd-2004-hmv) and check no case;
an exceptional case leaves Z = 0. G1: [h_eff] P by double-and-add, where Z = 0 at the
end means [h_eff] P = O. G2: RFC 9380's G.3 with psi, equal to [h_eff] P:
[x^2 - x - 1] P + [x - 1] psi(P) + psi^2(2 P); if it ends at Z = 0, again with the
complete addition of :mod:`.groups`.
"""
from __future__ import annotations

from types import ModuleType
from typing import Sequence, Tuple, Union

from ..asm import Assembler, Fp, Fp2, G1, G1Jacobian, G2, G2Jacobian, Label, Slot, Subroutine
from ..curves.bls12_381 import BLS12_381
from ..ec.groups import Group, add, add_distinct, affine_view
from ..tower import fp, fp2, jacobian
from ..tower.compare import push_equal, push_field_is_zero
from ..tower.control import Doubler
from ..tower.fp import Emitter
from .groups import DBL_RUN, G1_GROUP, G2_GROUP, PSI_X, PSI_Y

Const = Union[int, Tuple[int, int]]

P = BLS12_381.p
SQRT_EXPONENT = (P + 1) // 4                     # p = 3 mod 4
SQRT_RATIO_EXPONENT = (P - 3) // 4               # RFC 9380 F.2.1.2's c1
SQRT_MINUS_125 = pow(-125 % P, SQRT_EXPONENT, P)
assert SQRT_MINUS_125 ** 2 % P == -125 % P
INV2 = pow(2, -1, P)

SWU_G1_A = 0x144698A3B8E9433D693A02C96D4982B0EA985383EE66A8D8E8981AEFD881AC98936F8DA0E0F97F5CF428082D584C1D
SWU_G1_B = 0x12E2908D11688030018B12E8753EEE3B2016C1F0F24F4070A0B9C14FCEF35EF55A23215A316CEAA5D1CC48E98E172BE0
SWU_G1_Z = 11
H_EFF_G1 = 0xD201000000010001
SQRT_MINUS_Z = pow(-SWU_G1_Z % P, SQRT_EXPONENT, P)
assert SQRT_MINUS_Z ** 2 % P == -SWU_G1_Z % P

SWU_G2_A = (0, 240)
SWU_G2_B = (1012, 1012)
SWU_G2_Z = (-2 % P, -1 % P)                       # -(2 + i)

# The isogenies E' -> E: coefficients k_(i, 0), k_(i, 1), ... (lowest degree first); the
# denominators are monic (their leading 1 is not listed).
ISO_G1_X_NUM = (
    0x11a05f2b1e833340b809101dd99815856b303e88a2d7005ff2627b56cdb4e2c85610c2d5f2e62d6eaeac1662734649b7,
    0x17294ed3e943ab2f0588bab22147a81c7c17e75b2f6a8417f565e33c70d1e86b4838f2a6f318c356e834eef1b3cb83bb,
    0xd54005db97678ec1d1048c5d10a9a1bce032473295983e56878e501ec68e25c958c3e3d2a09729fe0179f9dac9edcb0,
    0x1778e7166fcc6db74e0609d307e55412d7f5e4656a8dbf25f1b33289f1b330835336e25ce3107193c5b388641d9b6861,
    0xe99726a3199f4436642b4b3e4118e5499db995a1257fb3f086eeb65982fac18985a286f301e77c451154ce9ac8895d9,
    0x1630c3250d7313ff01d1201bf7a74ab5db3cb17dd952799b9ed3ab9097e68f90a0870d2dcae73d19cd13c1c66f652983,
    0xd6ed6553fe44d296a3726c38ae652bfb11586264f0f8ce19008e218f9c86b2a8da25128c1052ecaddd7f225a139ed84,
    0x17b81e7701abdbe2e8743884d1117e53356de5ab275b4db1a682c62ef0f2753339b7c8f8c8f475af9ccb5618e3f0c88e,
    0x80d3cf1f9a78fc47b90b33563be990dc43b756ce79f5574a2c596c928c5d1de4fa295f296b74e956d71986a8497e317,
    0x169b1f8e1bcfa7c42e0c37515d138f22dd2ecb803a0c5c99676314baf4bb1b7fa3190b2edc0327797f241067be390c9e,
    0x10321da079ce07e272d8ec09d2565b0dfa7dccdde6787f96d50af36003b14866f69b771f8c285decca67df3f1605fb7b,
    0x6e08c248e260e70bd1e962381edee3d31d79d7e22c837bc23c0bf1bc24c6b68c24b1b80b64d391fa9c8ba2e8ba2d229,
)
ISO_G1_X_DEN = (
    0x8ca8d548cff19ae18b2e62f4bd3fa6f01d5ef4ba35b48ba9c9588617fc8ac62b558d681be343df8993cf9fa40d21b1c,
    0x12561a5deb559c4348b4711298e536367041e8ca0cf0800c0126c2588c48bf5713daa8846cb026e9e5c8276ec82b3bff,
    0xb2962fe57a3225e8137e629bff2991f6f89416f5a718cd1fca64e00b11aceacd6a3d0967c94fedcfcc239ba5cb83e19,
    0x3425581a58ae2fec83aafef7c40eb545b08243f16b1655154cca8abc28d6fd04976d5243eecf5c4130de8938dc62cd8,
    0x13a8e162022914a80a6f1d5f43e7a07dffdfc759a12062bb8d6b44e833b306da9bd29ba81f35781d539d395b3532a21e,
    0xe7355f8e4e667b955390f7f0506c6e9395735e9ce9cad4d0a43bcef24b8982f7400d24bc4228f11c02df9a29f6304a5,
    0x772caacf16936190f3e0c63e0596721570f5799af53a1894e2e073062aede9cea73b3538f0de06cec2574496ee84a3a,
    0x14a7ac2a9d64a8b230b3f5b074cf01996e7f63c21bca68a81996e1cdf9822c580fa5b9489d11e2d311f7d99bbdcc5a5e,
    0xa10ecf6ada54f825e920b3dafc7a3cce07f8d1d7161366b74100da67f39883503826692abba43704776ec3a79a1d641,
    0x95fc13ab9e92ad4476d6e3eb3a56680f682b4ee96f7d03776df533978f31c1593174e4b4b7865002d6384d168ecdd0a,
)
ISO_G1_Y_NUM = (
    0x90d97c81ba24ee0259d1f094980dcfa11ad138e48a869522b52af6c956543d3cd0c7aee9b3ba3c2be9845719707bb33,
    0x134996a104ee5811d51036d776fb46831223e96c254f383d0f906343eb67ad34d6c56711962fa8bfe097e75a2e41c696,
    0xcc786baa966e66f4a384c86a3b49942552e2d658a31ce2c344be4b91400da7d26d521628b00523b8dfe240c72de1f6,
    0x1f86376e8981c217898751ad8746757d42aa7b90eeb791c09e4a3ec03251cf9de405aba9ec61deca6355c77b0e5f4cb,
    0x8cc03fdefe0ff135caf4fe2a21529c4195536fbe3ce50b879833fd221351adc2ee7f8dc099040a841b6daecf2e8fedb,
    0x16603fca40634b6a2211e11db8f0a6a074a7d0d4afadb7bd76505c3d3ad5544e203f6326c95a807299b23ab13633a5f0,
    0x4ab0b9bcfac1bbcb2c977d027796b3ce75bb8ca2be184cb5231413c4d634f3747a87ac2460f415ec961f8855fe9d6f2,
    0x987c8d5333ab86fde9926bd2ca6c674170a05bfe3bdd81ffd038da6c26c842642f64550fedfe935a15e4ca31870fb29,
    0x9fc4018bd96684be88c9e221e4da1bb8f3abd16679dc26c1e8b6e6a1f20cabe69d65201c78607a360370e577bdba587,
    0xe1bba7a1186bdb5223abde7ada14a23c42a0ca7915af6fe06985e7ed1e4d43b9b3f7055dd4eba6f2bafaaebca731c30,
    0x19713e47937cd1be0dfd0b8f1d43fb93cd2fcbcb6caf493fd1183e416389e61031bf3a5cce3fbafce813711ad011c132,
    0x18b46a908f36f6deb918c143fed2edcc523559b8aaf0c2462e6bfe7f911f643249d9cdf41b44d606ce07c8a4d0074d8e,
    0xb182cac101b9399d155096004f53f447aa7b12a3426b08ec02710e807b4633f06c851c1919211f20d4c04f00b971ef8,
    0x245a394ad1eca9b72fc00ae7be315dc757b3b080d4c158013e6632d3c40659cc6cf90ad1c232a6442d9d3f5db980133,
    0x5c129645e44cf1102a159f748c4a3fc5e673d81d7e86568d9ab0f5d396a7ce46ba1049b6579afb7866b1e715475224b,
    0x15e6be4e990f03ce4ea50b3b42df2eb5cb181d8f84965a3957add4fa95af01b2b665027efec01c7704b456be69c8b604,
)
ISO_G1_Y_DEN = (
    0x16112c4c3a9c98b252181140fad0eae9601a6de578980be6eec3232b5be72e7a07f3688ef60c206d01479253b03663c1,
    0x1962d75c2381201e1a0cbd6c43c348b885c84ff731c4d59ca4a10356f453e01f78a4260763529e3532f6102c2e49a03d,
    0x58df3306640da276faaae7d6e8eb15778c4855551ae7f310c35a5dd279cd2eca6757cd636f96f891e2538b53dbf67f2,
    0x16b7d288798e5395f20d23bf89edb4d1d115c5dbddbcd30e123da489e726af41727364f2c28297ada8d26d98445f5416,
    0xbe0e079545f43e4b00cc912f8228ddcc6d19c9f0f69bbb0542eda0fc9dec916a20b15dc0fd2ededda39142311a5001d,
    0x8d9e5297186db2d9fb266eaac783182b70152c65550d881c5ecd87b6f0f5a6449f38db9dfa9cce202c6477faaf9b7ac,
    0x166007c08a99db2fc3ba8734ace9824b5eecfdfa8d0cf8ef5dd365bc400a0051d5fa9c01a58b1fb93d1a1399126a775c,
    0x16a3ef08be3ea7ea03bcddfabba6ff6ee5a4375efa1f4fd7feb34fd206357132b920f5b00801dee460ee415a15812ed9,
    0x1866c8ed336c61231a1be54fd1d74cc4f9fb0ce4c6af5920abc5750c4bf39b4852cfe2f7bb9248836b233d9d55535d4a,
    0x167a55cda70a6e1cea820597d94a84903216f763e13d87bb5308592e7ea7d4fbc7385ea3d529b35e346ef48bb8913f55,
    0x4d2f259eea405bd48f010a01ad2911d9c6dd039bb61a6290e591b36e636a5c871a5c29f4f83060400f8b49cba8f6aa8,
    0xaccbb67481d033ff5852c1e48c50c477f94ff8aefce42d28c0f9a88cea7913516f968986f7ebbea9684b529e2561092,
    0xad6b9514c767fe3c3613144b45f1496543346d98adf02267d5ceef9a00d9b8693000763e3b90ac11e99b138573345cc,
    0x2660400eb2e4f3b628bdd0d53cd76f2bf565b94e72927c1cb748df27942480e420517bd8714cc80d1fadc1326ed06f7,
    0xe0fa1d816ddc03e6b24255e0d7819c171c40f65e273b853324efcd6356caa205ca2f570f13497804415473a1d634b8f,
)

ISO_G2_X_NUM = (
    (0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6,
     0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6),
    (0x0,
     0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71a),
    (0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71e,
     0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38d),
    (0x171d6541fa38ccfaed6dea691f5fb614cb14b4e7f4e810aa22d6108f142b85757098e38d0f671c7188e2aaaaaaaa5ed1,
     0x0),
)
ISO_G2_X_DEN = (
    (0x0,
     0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa63),
    (0xc,
     0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa9f),
)
ISO_G2_Y_NUM = (
    (0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706,
     0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706),
    (0x0,
     0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97be),
    (0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71c,
     0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38f),
    (0x124c9ad43b6cf79bfbf7043de3811ad0761b0f37a1e26286b0e977c69aa274524e79097a56dc4bd9e1b371c71c718b10,
     0x0),
)
ISO_G2_Y_DEN = (
    (0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb,
     0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb),
    (0x0,
     0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa9d3),
    (0x12,
     0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa99),
)

ISO_G1 = (ISO_G1_X_NUM, ISO_G1_X_DEN, ISO_G1_Y_NUM, ISO_G1_Y_DEN)
ISO_G2 = (ISO_G2_X_NUM, ISO_G2_X_DEN, ISO_G2_Y_NUM, ISO_G2_Y_DEN)


def _const(e: Emitter, name: str, value: Const) -> Slot:
    if isinstance(value, int):
        return e.fp_const(name, value)
    return e.const(Fp2, name, list(value))


def _horner(e: Emitter, field: ModuleType, out: Slot, x: Slot, coefficients: Sequence[Const],
            monic: bool, name: str) -> None:
    """out = sum c_i x^i (+ x^n if ``monic``); ``out`` must not alias ``x``."""
    consts = [_const(e, f"{name}{i}", c) for i, c in enumerate(coefficients)]
    if monic:
        field.add(e, out, x, consts[-1])
    else:
        fp.copy(e, out, consts[-1])
    for c in reversed(consts[:-1]):
        field.mul(e, out, out, x)
        field.add(e, out, out, c)


def _jump_if_equal(e: Emitter, a: Slot, b: Slot, target: Label) -> None:
    push_equal(e, a, b)
    e.asm.jumpi(target)


def _power_c1(e: Emitter, out: Fp, a: Fp) -> None:
    """out = a^((p-3)/4): for a square a != 0, 1 / sqrt(a) (out^2 a = 1), else
    out^2 a = -1 (0 for 0)."""
    fp.power(e, out, a, SQRT_RATIO_EXPONENT, "fp_sqrt_ratio")


def _swu_fraction(e: Emitter, field: ModuleType, xn: Slot, xd: Slot, t: Slot, u: Slot,
                  z: Const, a: Const, b: Const) -> None:
    """t = Z u^2 and x1 = xn / xd (RFC 9380 F.2, steps 1-8): xn = B (t^2 + t + 1),
    xd = -A (t^2 + t), or A Z when t^2 + t = 0 (then x1 = B / (Z A))."""
    asm = e.asm
    one = e.one if field is fp else e.const(Fp2, "fp2_one", [1, 0])
    exceptional, done = asm.new_label("swu_exceptional"), asm.new_label("swu_xd")
    with asm.temps(field.ELEMENT) as (tv2,):
        field.sqr(e, t, u)
        field.mul(e, t, t, _const(e, "swu_z", z))
        field.sqr(e, tv2, t)
        field.add(e, tv2, tv2, t)
        field.add(e, xn, tv2, one)
        field.mul(e, xn, xn, _const(e, "swu_b", b))
        push_field_is_zero(e, tv2)
        asm.jumpi(exceptional)
        field.mul(e, xd, tv2, _const(e, "swu_-a", _negate(a)))
        asm.jump(done)
        asm.place(exceptional)
        fp.copy(e, xd, _const(e, "swu_za", _product(field, z, a)))
        asm.place(done)


def _negate(value: Const) -> Const:
    return -value % P if isinstance(value, int) else (-value[0] % P, -value[1] % P)


def _product(field: ModuleType, a: Const, b: Const) -> Const:
    return a * b % P if field is fp else BLS12_381.fp2.mul(a, b)  # type: ignore[arg-type,operator]


def _gx_fraction(e: Emitter, field: ModuleType, n: Slot, m: Slot, xd2: Slot, xn: Slot,
                 xd: Slot, a: Const, b: Const) -> None:
    """g(xn / xd) = n / m: xd2 = xd^2, m = xd^3, n = xn^3 + A xn xd^2 + B xd^3."""
    field.sqr(e, xd2, xd)
    field.sqr(e, n, xn)
    field.mul(e, m, xd2, _const(e, "swu_a", a))
    field.add(e, n, n, m)
    field.mul(e, n, n, xn)
    field.mul(e, m, xd2, xd)
    with e.asm.temps(field.ELEMENT) as (bm,):
        field.mul(e, bm, m, _const(e, "swu_b", b))
        field.add(e, n, n, bm)


def _sqrt_ratio(e: Emitter, y: Fp, chi_over_m: Fp, n: Fp, m: Fp) -> None:
    """RFC 9380 F.2.1.2's sqrt_ratio (p = 3 mod 4) for n, m != 0, and the inverse of m
    from the same power: with w = (n m^3)^((p-3)/4) and chi = +-1 the quadratic character
    of n / m, y = n m w (y^2 = chi n / m) and chi_over_m = n m^2 w^2 = chi / m."""
    with e.asm.temps(Fp, Fp) as (k, w):
        fp.mul(e, k, n, m)                                   # n m
        fp.sqr(e, w, m)
        fp.mul(e, w, w, k)                                   # n m^3
        _power_c1(e, w, w)
        fp.mul(e, y, w, k)
        fp.sqr(e, w, w)
        fp.mul(e, w, w, k)
        fp.mul(e, chi_over_m, w, m)


def _jump_unless_one(e: Emitter, chi_over_m: Fp, m: Fp, target: Label) -> None:
    """Jump to ``target`` unless chi = (chi / m) m is 1 (n / m is not a square)."""
    with e.asm.temps(Fp) as (chi,):
        fp.mul(e, chi, chi_over_m, m)
        push_equal(e, chi, e.one)
        e.asm.op("ISZERO")
        e.asm.jumpi(target)


def swu_g1(e: Emitter, out: G1, u: Fp) -> None:
    """out = the simplified SWU map of u (Montgomery form) to E', affine, except the sign
    of y (see :func:`fix_sign`): one exponentiation, no inversion (:func:`_sqrt_ratio`
    gives sqrt(g(x1)) or sqrt(-g(x1)), and 1 / xd^3)."""
    asm = e.asm
    with asm.scope("swu"), asm.temps(*[Fp] * 8) as (t, xn, xd, xd2, n, m, y, inv):
        _swu_fraction(e, fp, xn, xd, t, u, SWU_G1_Z, SWU_G1_A, SWU_G1_B)
        _gx_fraction(e, fp, n, m, xd2, xn, xd, SWU_G1_A, SWU_G1_B)
        _sqrt_ratio(e, y, inv, n, m)
        fp.mul(e, xd2, xd2, inv)                             # chi / xd
        not_square, done = asm.new_label("gx1_not_square"), asm.new_label("swu_done")
        _jump_unless_one(e, inv, m, not_square)
        fp.mul(e, out.x, xn, xd2)                            # x1
        fp.copy(e, out.y, y)
        asm.jump(done)
        asm.place(not_square)
        fp.mul(e, xn, xn, xd2)                               # -x1
        fp.mul(e, xn, xn, t)
        fp.neg(e, out.x, xn)                                 # x2 = t x1
        fp.sqr(e, n, u)
        fp.mul(e, n, n, u)
        fp.mul(e, n, n, e.fp_const("swu_z*sqrt(-z)", SWU_G1_Z * SQRT_MINUS_Z))
        fp.mul(e, out.y, y, n)                               # sqrt(g(x2)) = y u^3 Z sqrt(-Z)
        asm.place(done)


def _norm(e: Emitter, out: Fp, a: Fp2) -> None:
    """out = a0^2 + a1^2."""
    with e.asm.temps(Fp) as (t,):
        fp.sqr(e, out, a.c0)
        fp.sqr(e, t, a.c1)
        fp.add(e, out, out, t)


def _sqrt_fp2(e: Emitter, out: Fp2, a: Fp2, s: Fp) -> None:
    """out = a square root of the square a, given s^2 = norm(a) (either sign): with
    d = (a0 + s) / 2 (d = a0 when a1 = 0) and w = d^((p-3)/4), sqrt(a) = d w + a1 w / 2 i
    if w^2 d = 1, else a1 w / 2 - d w i (then (a0 - s) / 2 is the square:
    d (a0 - s) / 2 = -a1^2 / 4). One exponentiation, no inversion."""
    asm = e.asm
    half = e.fp_const("1/2", INV2)
    general, ready = asm.new_label("sqrt_general"), asm.new_label("sqrt_d")
    second, done = asm.new_label("sqrt_second"), asm.new_label("sqrt_done")
    with asm.scope("fp2_sqrt"), asm.temps(Fp, Fp, Fp) as (d, w, h):
        push_field_is_zero(e, a.c1)
        asm.op("ISZERO")
        asm.jumpi(general)
        fp.copy(e, d, a.c0)
        asm.jump(ready)
        asm.place(general)
        fp.add(e, d, a.c0, s)
        fp.mul(e, d, d, half)
        asm.place(ready)
        _power_c1(e, w, d)
        fp.mul(e, h, a.c1, w)
        fp.mul(e, h, h, half)                                # a1 w / 2
        fp.mul(e, d, d, w)                                   # d w
        fp.mul(e, w, w, d)                                   # w^2 d
        push_equal(e, w, e.one)
        asm.op("ISZERO")
        asm.jumpi(second)
        fp.copy(e, out.c1, h)
        fp.copy(e, out.c0, d)
        asm.jump(done)
        asm.place(second)
        fp.neg(e, out.c1, d)
        fp.copy(e, out.c0, h)
        asm.place(done)


def swu_g2(e: Emitter, out: G2, u: Fp2) -> None:
    """out = the simplified SWU map of u (Montgomery form) to E', affine, except the sign
    of y: two exponentiations of Fp, no inversion. g(x1) = n / m is a square in Fp2 iff
    its norm N(n) / N(m) is one in Fp; :func:`_sqrt_ratio` on the norms gives s with
    s^2 = +-N(g(x1)) and 1 / N(m), hence 1 / m = conj(m) / N(m); for x2 = t x1,
    N(g(x2)) = N(t)^3 N(g(x1)) = (-125) N(u)^6 (-N(g(x1))) (N(Z) = 5)."""
    asm = e.asm
    with asm.scope("swu"), asm.temps(*[Fp2] * 6) as (t, xn, xd, xd2, n, m), \
            asm.temps(Fp, Fp, Fp, Fp) as (nn, mm, s, inv):
        _swu_fraction(e, fp2, xn, xd, t, u, SWU_G2_Z, SWU_G2_A, SWU_G2_B)
        _gx_fraction(e, fp2, n, m, xd2, xn, xd, SWU_G2_A, SWU_G2_B)
        _norm(e, nn, n)
        _norm(e, mm, m)
        _sqrt_ratio(e, s, inv, nn, mm)
        not_square, root = asm.new_label("gx1_not_square"), asm.new_label("swu_root")
        _jump_unless_one(e, inv, mm, not_square)
        fp2.conj(e, m, m)
        fp.mul(e, m, m, inv)                                 # 1 / m
        fp2.mul(e, n, n, m)                                  # g(x1)
        fp2.mul(e, xd2, xd2, m)                              # 1 / xd
        fp2.mul(e, out.x, xn, xd2)                           # x1
        asm.jump(root)
        asm.place(not_square)
        fp2.conj(e, m, m)
        fp.mul(e, m, m, inv)                                 # -1 / m
        fp2.mul(e, n, n, m)                                  # -g(x1)
        fp2.mul(e, xd2, xd2, m)
        fp2.mul(e, xn, xn, xd2)
        fp2.mul(e, xn, xn, t)
        fp2.neg(e, out.x, xn)                                # x2 = t x1
        fp2.sqr(e, xd, t)
        fp2.mul(e, xd, xd, t)
        fp2.mul(e, n, n, xd)
        fp2.neg(e, n, n)                                     # g(x2) = t^3 g(x1)
        _norm(e, nn, u)
        fp.sqr(e, mm, nn)
        fp.mul(e, mm, mm, nn)
        fp.mul(e, mm, mm, e.fp_const("sqrt(-125)", SQRT_MINUS_125))
        fp.mul(e, s, s, mm)                                  # sqrt(N(g(x2)))
        asm.place(root)
        _sqrt_fp2(e, out.y, n, s)


def push_sgn0(e: Emitter, field: ModuleType, value: Slot) -> None:
    """Push sgn0 of an Fp or Fp2 value (RFC 9380 4.1): the parity of the canonical c0, or
    of c1 when c0 = 0."""
    values = value.fps()
    e.target.push_parity(e, values[0])
    if len(values) == 2:
        push_field_is_zero(e, values[0])
        e.target.push_parity(e, values[1])
        e.asm.ops("AND", "OR")


def fix_sign(e: Emitter, field: ModuleType, y: Slot) -> None:
    """y = -y unless sgn0(y) equals the sgn0(u) on the stack (consumed)."""
    asm = e.asm
    keep = asm.new_label("sign_ok")
    push_sgn0(e, field, y)
    asm.op("XOR")
    asm.op("ISZERO")
    asm.jumpi(keep)
    field.neg(e, y, y)
    asm.place(keep)


def iso_map(e: Emitter, field: ModuleType, out: Slot, p: Slot,
            iso: Tuple[Sequence[Const], ...]) -> None:
    """out = the isogeny (x_num, x_den, y_num, y_den) of the affine point p on E', in
    Jacobian coordinates."""
    x_num, x_den, y_num, y_den = iso
    kind = field.ELEMENT
    with e.asm.scope("isogeny"), e.asm.temps(kind, kind, kind, kind) as (xn, xd, yn, yd):
        _horner(e, field, xn, p.x, x_num, False, "iso_xn")
        _horner(e, field, xd, p.x, x_den, True, "iso_xd")
        _horner(e, field, yn, p.x, y_num, False, "iso_yn")
        _horner(e, field, yd, p.x, y_den, True, "iso_yd")
        field.mul(e, out.z, xd, yd)                          # Z = x_den y_den
        field.mul(e, out.x, xn, yd)
        field.mul(e, out.x, out.x, out.z)                    # X = x_num y_den Z
        field.mul(e, yn, yn, p.y)
        field.mul(e, yn, yn, xd)
        field.sqr(e, xd, out.z)
        field.mul(e, out.y, yn, xd)                          # Y = y' y_num x_den Z^2


def _jump_if_finite(e: Emitter, point: Slot, target: Label) -> None:
    push_field_is_zero(e, point.z)
    e.asm.op("ISZERO")
    e.asm.jumpi(target)


def _times_on_twin(e: Emitter, field: ModuleType, w: Slot, t: Slot, doubler: Doubler,
                   bits: str, madd: Subroutine) -> None:
    """w = [1 bits] t with mixed additions, for T = (X, Y, Z) = ``t``: (X, Y) is an affine
    point of the curve y^2 = x^3 + b Z^6, isomorphic to E by (x, y) -> (x / Z^2, y / Z^3),
    where neither the doubling nor madd-2004-hmv reads b; Z is multiplied into the result.
    No case is checked: if w ever meets +-t or infinity, or t is infinity, w.z ends 0."""
    fp.copy(e, w.x, t.x)
    fp.copy(e, w.y, t.y)
    jacobian.from_affine(e, w, affine_view(w, G1_GROUP if field is fp else G2_GROUP))
    doubler.bits(bits, lambda: e.asm.call(madd))
    field.mul(e, w.z, w.z, t.z)


def clear_cofactor_g1(e: Emitter, acc: G1Jacobian, p: G1Jacobian) -> None:
    """acc = [h_eff] p for any p on E: double-and-add with mixed additions on p's
    isomorphic curve (:func:`_times_on_twin`), no case checked. Exact: an addition
    [2k] p +- p (2k < h_eff < r) meets an exceptional case only if [m] p = O for some
    0 < m < r, so p lies in E[h] (h the cofactor, prime to r), and so does [h_eff] p; as
    [h_eff] maps E into G1, [h_eff] p = O, which the run gives too (Z = 0 stays 0); p at
    infinity (Z = 0) gives Z = 0 as well."""
    bits = bin(H_EFF_G1)[3:]
    doubler = Doubler(e, "g1_map_dbl", [bits], lambda: jacobian.point_dbl(e, fp, acc),
                      DBL_RUN)
    madd = e.asm.subroutine("g1_map_madd", lambda a: jacobian.jacobian_add_affine_hmv(
        e, fp, acc, affine_view(p, G1_GROUP)))
    with e.asm.scope("clear_cofactor"):
        _times_on_twin(e, fp, acc, p, doubler, bits, madd)


def _psi(e: Emitter, out: G2Jacobian, a: G2Jacobian) -> None:
    """psi in Jacobian coordinates (conjugation commutes with x = X / Z^2, y = Y / Z^3)."""
    fp2.mul_const(e, out.x, a.x, PSI_X, "psi_x", conjugate=True)
    fp2.mul_const(e, out.y, a.y, PSI_Y, "psi_y", conjugate=True)
    fp2.conj(e, out.z, a.z)


def clear_cofactor_g2(e: Emitter, w: G2Jacobian, p: G2Jacobian) -> None:
    """w = [h_eff] p for any p on E (RFC 9380 G.3), with one work pair w (accumulator)
    and t (addend): [x] t and w + t are subroutines. First with mixed additions in the
    multiplications by x (:func:`_times_on_twin`) and additions that check nothing; if
    that ends at Z = 0 (infinity somewhere, or an exceptional case), again with the
    complete addition. The second run is needed: psi acts on G2 as [x], so for p in G2
    the sum [x] p + psi(p) is a doubling, which the unchecked addition cannot do."""
    asm = e.asm
    region = asm.memory.region("clear_cofactor")
    t, t1, t2, t3 = (region.alloc(G2Jacobian, name) for name in ("t", "t1", "t2", "t3"))
    bits = bin(abs(BLS12_381.x))[3:]
    doubler = Doubler(e, "g2_map_dbl", [bits], lambda: jacobian.point_dbl(
        e, fp2, w, extension=True), DBL_RUN)
    add_t = asm.subroutine("g2_map_add", lambda a: add(
        e, G2_GROUP, w, t, doubler.once, t_may_be_infinity=True))
    add_fast = asm.subroutine("g2_map_add_unchecked",
                              lambda a: add_distinct(e, G2_GROUP, w, t))
    madd = asm.subroutine("g2_map_madd", lambda a: jacobian.jacobian_add_affine_hmv(
        e, fp2, w, affine_view(t, G2_GROUP)))

    def mul_by_x(a: Assembler) -> None:                      # w = [x] t, x < 0
        fp.copy(e, w, t)
        doubler.bits(bits, lambda: asm.call(add_t))
        fp2.neg(e, w.y, w.y)

    def mul_by_x_fast(a: Assembler) -> None:
        _times_on_twin(e, fp2, w, t, doubler, bits, madd)
        fp2.neg(e, w.y, w.y)
    times_x = asm.subroutine("g2_map_mul_by_x", mul_by_x)
    times_x_fast = asm.subroutine("g2_map_mul_by_x_unchecked", mul_by_x_fast)

    def minus_into_t(a: G2Jacobian) -> None:
        fp.copy(e, t, a)
        fp2.neg(e, t.y, t.y)

    def clear(times: Subroutine, plus: Subroutine) -> None:
        fp.copy(e, t, p)
        asm.call(times)
        fp.copy(e, t1, w)                                    # t1 = [x] P
        _psi(e, t2, p)                                       # t2 = psi(P)
        fp.copy(e, w, p)
        doubler.once()
        _psi(e, t3, w)
        _psi(e, t3, t3)                                      # t3 = psi^2(2 P)
        fp.copy(e, w, t3)
        minus_into_t(t2)
        asm.call(plus)
        fp.copy(e, t3, w)                                    # t3 = t3 - t2
        fp.copy(e, w, t1)
        fp.copy(e, t, t2)
        asm.call(plus)
        fp.copy(e, t, w)
        asm.call(times)                                      # w = [x] (t1 + t2)
        fp.copy(e, t, t3)
        asm.call(plus)                                       # + t3
        minus_into_t(t1)
        asm.call(plus)                                       # - t1
        minus_into_t(p)
        asm.call(plus)                                       # - P

    done = asm.new_label("cleared")
    with asm.scope("clear_cofactor"):
        clear(times_x_fast, add_fast)
        _jump_if_finite(e, w, done)
        asm.place(asm.new_label("cofactor_complete"))
        clear(times_x, add_t)
    asm.place(done)


def map_to_curve(e: Emitter, group: Group, out: Slot, u: Slot) -> None:
    """out (Jacobian) = the EIP's map of u (Montgomery form; Fp for G1, Fp2 for G2)."""
    swu, iso, clear = ((swu_g1, ISO_G1, clear_cofactor_g1) if group is G1_GROUP else
                       (swu_g2, ISO_G2, clear_cofactor_g2))
    region = e.asm.memory.region("map")
    on_e_prime = region.alloc(group.affine, "swu")
    on_e = region.alloc(group.jacobian, "iso")
    push_sgn0(e, group.field, u)
    swu(e, on_e_prime, u)
    fix_sign(e, group.field, on_e_prime.y)
    iso_map(e, group.field, on_e, on_e_prime, iso)
    clear(e, out, on_e)
