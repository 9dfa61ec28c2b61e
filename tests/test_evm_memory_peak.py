"""Peak resident memory of big copies stays near the EVM memory they fill (issue 15:
a 4 GiB CALLDATACOPY peaked at 12.3 GB on the python engine: padded source, a
temporary, the bytearray). Linux's peak RSS (VmHWM) is reset before each program."""
import os
import subprocess
import sys
import textwrap

import pytest

SIZE = 64 * 2**20

PROGRAM = textwrap.dedent("""
    import re, sys
    from evm384_native.evm.api import run

    def status(field):
        return 1024 * int(re.search(field + r":\\s+(\\d+)", open("/proc/self/status").read()).group(1))

    size, engine = int(sys.argv[1]), sys.argv[2]
    size_push = bytes([0x63]) + size.to_bytes(4, "big")   # PUSH4 size
    programs = {  # op(dest 0, source 0, size), then STOP
        "CALLDATACOPY": size_push + bytes([0x5F, 0x5F, 0x37, 0x00]),
        "CODECOPY": size_push + bytes([0x5F, 0x5F, 0x39, 0x00]),
        # MCOPY(dest size, source 0, size): memory is 2 * size
        "MCOPY": size_push + bytes([0x5F]) + size_push + bytes([0x5E, 0x00]),
        "KECCAK256": size_push + bytes([0x5F, 0x20, 0x00]),
    }
    for name, code in programs.items():
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")  # VmHWM = VmRSS
        before = status("VmRSS")
        result = run(code, b"\\x01" * 1000, gas=2**62, engine=engine)
        assert result.success, (name, result)
        memory = 2 * size if name == "MCOPY" else size
        print(name, (status("VmHWM") - before) / memory)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self (Linux)")
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's allocator adds shadow memory and copies on realloc")
@pytest.mark.parametrize("engine", ["python", "fast"])
def test_big_copies_peak_near_the_memory_they_fill(engine):
    out = subprocess.run([sys.executable, "-c", PROGRAM, str(SIZE), engine], capture_output=True,
                         text=True, check=True).stdout
    growth = {line.split()[0]: float(line.split()[1]) for line in out.splitlines()}
    assert set(growth) == {"CALLDATACOPY", "CODECOPY", "MCOPY", "KECCAK256"}
    assert all(0.9 <= ratio <= 1.25 for ratio in growth.values()), growth
