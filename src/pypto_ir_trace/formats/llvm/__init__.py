"""Discovery of LLVM pass dumps: -print-after-all streams (stream.py) cut at their header lines (headers.py), one-
function, SCC and loop dumps spliced into the whole program (program.py, on the format-neutral splice.py)."""

from __future__ import annotations

import re

from .stream import HELP, INPUT_NAME, looks_like, read

# clang's diagnostics: lz4.c:12:5: warning: ...
_DIAGNOSTIC = re.compile(r"^(?:[^\s:]+):\d+(?::\d+)?: (?P<severity>error|fatal error|warning|note|remark): ")


def anchors(warnings: str, filename: str) -> list[tuple[int, int, str]]:
    """clang names lines of the source, never of a dump: no warning points into a snapshot."""
    return []


def errors(warnings: str) -> list[int]:
    """The log lines (0-based) that start an error diagnostic."""
    return [
        i
        for i, line in enumerate(warnings.split("\n"))
        if (match := _DIAGNOSTIC.match(line)) and match["severity"] in ("error", "fatal error")
    ]


__all__ = ["HELP", "INPUT_NAME", "anchors", "errors", "looks_like", "read"]
