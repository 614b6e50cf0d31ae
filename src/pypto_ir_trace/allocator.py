"""The C allocator, told to give large blocks back to the system when they are freed (glibc only).

glibc serves a block of 128 KiB or more with a mapping of its own, and raises that threshold to the size of each
such block freed (up to 32 MiB on 64-bit), so that later blocks of that size come from its heap. After a build
has freed its trees and texts, the heap is too fragmented to shrink, and the blocks of what comes next (the page's
1 MB batches, the next dumps' texts) land there and count in the peak again. A fixed threshold keeps blocks of
1 MiB or more mapped and returned when freed. Measured (benchmarks/README.md, 2026-12-04): IREE mlp's local
stream peaks at 77 MB, not 79-81; lz4's 156 MB LLVM dump at 418 MB, not 477; CPU within the hour's noise. 128 KiB
saved more (398 MB) but cost 8 % more CPU on lz4 in mapping and faulting small blocks.

The command line sets it (cli.main); a program that imports the package keeps its own allocator settings.
"""

from __future__ import annotations

import ctypes
import sys

M_MMAP_THRESHOLD = -3  # glibc's <malloc.h>
THRESHOLD = 1 << 20  # bytes


def return_large_blocks() -> bool:
    """Fix glibc's mmap threshold at THRESHOLD; False where there is no glibc to tell."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library the interpreter runs on
    except (OSError, AttributeError):  # musl has no mallopt to speak of
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD))
