import os

import pytest
from hypothesis import HealthCheck, settings

from evm384_native.evm.kernels import kernel
from signature_oracles import coincurve_recoverer, openssl_verifier

# the Montgomery multiplications this machine can run: the portable one, and MULX/ADX
IMPLEMENTATIONS = ["portable"] + (["mulx"] if kernel.mulx_available() else [])

# CI runs more examples; local runs stay quick.
settings.register_profile("ci", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(params=IMPLEMENTATIONS)
def implementation(request):
    """Each Montgomery multiplication in turn as the selected one (selected_mulmont: the
    kernels, the fused EVM384 segments and the C steps use it), then automatic again."""
    kernel.use_implementation(request.param)
    yield request.param
    kernel.use_implementation("auto")


@pytest.fixture(scope="module")
def openssl():
    """OpenSSL's ECDSA verdict, verify(curve, key, h, r, s) (:mod:`signature_oracles`)."""
    return openssl_verifier()


@pytest.fixture(scope="module")
def coincurve_recover():
    """libsecp256k1's ECRECOVER answer, recover(data) (:mod:`signature_oracles`)."""
    return coincurve_recoverer()
