"""Discovery of LLVM pass dumps: -print-after-all streams (stream.py) cut at their header lines (headers.py), one-
function, SCC and loop dumps spliced into the whole program (program.py, on the format-neutral splice.py).

What --help and the report say of the format, and its diagnostics, are here; the reader is imported when first
used (PEP 562), as MLIR's is (formats/mlir/__init__.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...lazy import exports as _exports

HELP = (
    "a file of LLVM -print-after-all output (stderr of clang -mllvm, opt, llc; also -print-before-all, "
    "-print-changed, -print-module-scope, machine code): IR Dump header lines start each dump"
)
INPUT_NAME = "(input not dumped)"  # snapshot 0 when LLVM prints no copy of the pipeline's input
PREFIXES = (b"; *** IR ", b"*** IR ", b"# *** IR ")  # a header line starts with one of these
# how the lines of -debug-pass-manager's log start (`Running pass: SROAPass on f`): neither IR nor a warning
LOG_STARTS = (b"Running pass: ", b"Running analysis: ", b"Skipping pass: ", b"Invalidating ", b"Clearing all analysis")

if TYPE_CHECKING:
    from .stream import looks_like, read

# clang's diagnostics: lz4.c:12:5: warning: ... (a pass's remark too: it is printed before the pass's dump)
DIAGNOSTIC = re.compile(r"^(?:[^\s:]+):\d+(?::\d+)?: (?P<severity>error|fatal error|warning|note|remark): ")


def anchors(warnings: str, filename: str) -> list[tuple[int, int, str]]:
    """clang names lines of the source, never of a dump: no warning points into a snapshot."""
    return []


def errors(warnings: str) -> list[int]:
    """The log lines (0-based) that start an error diagnostic."""
    return [
        i
        for i, line in enumerate(warnings.split("\n"))
        if (match := DIAGNOSTIC.match(line)) and match["severity"] in ("error", "fatal error")
    ]


__getattr__ = _exports(__name__, {"looks_like": ("stream", "looks_like"), "read": ("stream", "read")}, globals())


__all__ = ["DIAGNOSTIC", "HELP", "INPUT_NAME", "LOG_STARTS", "PREFIXES", "anchors", "errors", "looks_like", "read"]
