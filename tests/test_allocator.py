"""The command line's allocator setting: a large block freed goes back to the system (glibc Linux)."""

import platform
import subprocess
import sys

import pytest

# A 16 MB block freed raises glibc's dynamic mmap threshold past 4 MB, so that the 4 MB blocks after it come from
# the heap and stay there once freed (the heap cannot shrink past the blocks left above them); with the threshold
# fixed they are mapped and unmapped. Prints the RSS kept after the 4 MB blocks are freed, in MB.
_CHILD = """
import sys
from pypto_ir_trace import allocator

def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 1e6

if sys.argv[1] == "fixed":
    assert allocator.return_large_blocks()
big = b"x" * (16 << 20)
del big
start = rss()
blocks = [b"y" * (4 << 20) for _ in range(8)]
pins = [b"z" * 4000 for _ in range(2000)]  # small blocks after them on the heap: it cannot shrink from the top
del blocks
print(rss() - start)
"""


def _kept(mode: str) -> float:
    found = subprocess.run([sys.executable, "-c", _CHILD, mode], check=True, capture_output=True, text=True)
    return float(found.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the setting is glibc's")
def test_large_blocks_freed_go_back_to_the_system_once_the_threshold_is_fixed():
    assert _kept("dynamic") > 24  # the glibc default: the 32 MB of blocks stay in the heap
    assert _kept("fixed") < 16
