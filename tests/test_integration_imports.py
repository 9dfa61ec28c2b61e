"""Each integration, imported where its extra is missing, names the extra to install (issue
42: a bare install told titanoboa's users to install [pyevm]).

The missing modules are simulated in a child process (``sys.modules[name] = None`` makes
importing ``name`` raise ImportError), so these run whether or not the extras are installed."""
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import sys
    sys.modules.update(dict.fromkeys(sys.argv[2:]))     # these imports now fail
    try:
        __import__(sys.argv[1])
    except ImportError as error:
        print(error)
""")


def import_message(module: str, *missing: str) -> str:
    """What importing ``module`` says where the modules ``missing`` are not installed."""
    done = subprocess.run([sys.executable, "-c", SCRIPT, module, *missing],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("missing", [("boa", "eth", "eth_tester"), ("boa",)],
                         ids=["bare install", "py-evm without titanoboa"])
def test_titanoboa_integration_names_the_titanoboa_extra(missing):
    message = import_message("evm384_native.integrations.titanoboa", *missing)
    assert "pip install 'evm384_native[titanoboa]'" in message
    assert "[pyevm]" not in message


def test_pyevm_integration_names_the_pyevm_extra():
    message = import_message("evm384_native.integrations.pyevm", "eth")
    assert "pip install 'evm384_native[pyevm]'" in message
