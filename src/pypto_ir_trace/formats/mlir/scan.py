"""One pass over a stream file, a chunk at a time: where its header lines and diagnostic lines start.

A stream may be larger than memory (a 180 MB pipeline is common, 1 GB happens), so nothing of it is kept but
these byte offsets: each dump is read again, alone, when its text is needed (dump.Stretch). Lines are the ones
dump.split_lines gives (\\r\\n, \\r or \\n ends a line), so the dumps are cut exactly where reading the whole
file as one text would cut them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, NamedTuple

from ...dump import REPORT_MARKERS, REPORT_START, WHOLE, Part, blocks, decode, lines_holding, split_lines
from ...errors import DumpError
from .headers import HEADER_PREFIX, Header, parse_header

CHUNK = 1 << 20  # bytes read at a time; a chunk is then cut after its last line break
# A diagnostic starts at column 0 with its location: input.mlir:5:3, file.mlir:7, <unknown>:0; under
# --split-input-file, "within split at input.mlir:20 offset :19:5" (the chunk's first line, then the line in it).
DIAGNOSTIC = re.compile(
    r"^(?:within split at (?P<chunk>[^\s:\"]+?):(?P<chunk_line>\d+) offset )?"
    r"(?P<file><unknown>|[^\s:\"]*?):(?P<line>\d+)(?::(?P<col>\d+))?: "
    r"(?P<severity>error|warning|note|remark): (?P<msg>.*)$"
)
# Every diagnostic line holds one of these: found at C speed, then the line is checked with DIAGNOSTIC.
_SEVERITIES = tuple(f": {word}: ".encode() for word in ("error", "warning", "note", "remark"))
# What the compiler prints besides its dumps and diagnostics, to the next diagnostic or dump: a report
# (--mlir-timing), or a pass's own dump in its run, headed like the pass manager's but no pass's (Triton's
# `// -----// SoftwarePipeliner internal IR Dump After: LowerLoops`)
OWN_OUTPUT = re.compile(rf"{REPORT_START.pattern}|^// -----// (?!IR Dump (?:Before|After) )")
_OWN_MARKERS = (*REPORT_MARKERS, b"// -----// ")
_PREFIX = HEADER_PREFIX.encode()
_BOM = "\ufeff".encode()


class HeaderLine(NamedTuple):
    at: int  # byte offset of the line's start
    row: int  # its line index in the text (0-based)
    header: Header


@dataclass
class Scan:
    """What one pass over the file found, as byte offsets of line starts."""

    start: int = 0  # where the text starts: 3 after a byte order mark
    end: int = 0  # the file's size
    headers: list[HeaderLine] = field(default_factory=list)
    diagnostics: list[int] = field(default_factory=list)
    said: set[bytes] = field(default_factory=set)  # which of the phrases asked about the file holds
    rows: int = 0  # line breaks before the chunk being read


def scan(path: Path, phrases: tuple[bytes, ...] = (), part: Part = WHOLE) -> Scan:
    """Header and diagnostic lines of the file (or of the part of it given), in file order; and which of the
    phrases (each within one line) it holds. Bad UTF-8 is an error naming the offset, as reading the file whole
    would say."""
    found = Scan(start=part.start, end=part.start, rows=part.row)
    try:
        with path.open("rb") as handle:
            for offset, chunk in _chunks(handle, part):
                if offset == 0 and chunk.startswith(_BOM):  # not part of the text: its first line starts after it
                    found.start, offset, chunk = len(_BOM), len(_BOM), chunk[len(_BOM) :]
                if not chunk.isascii():
                    decode(chunk, path, offset)
                if b"\r" not in chunk or chunk.count(b"\r") == chunk.count(b"\r\n"):
                    _read_lines_ending_in_lf(chunk, offset, found)
                else:
                    _read_any_lines(chunk, offset, found)
                found.said.update(phrase for phrase in phrases if phrase in chunk)
                found.end = offset + len(chunk)
    except OSError as err:
        raise DumpError(f"cannot read {path}: {err.strerror or err}") from None
    found.diagnostics.sort()
    return found


def _chunks(handle: BinaryIO, part: Part = WHOLE) -> Iterator[tuple[int, bytes]]:
    """(file offset, bytes) pieces of the part that each end right after a line break (the last: at its end).
    A \\r is only cut after when the byte after it is known, so a \\r\\n pair is never split."""
    offset, carry = part.start, b""
    for block in blocks(handle, part, CHUNK):
        buffer = carry + block
        cut = max(buffer.rfind(b"\n"), buffer.rfind(b"\r", 0, len(buffer) - 1)) + 1
        if cut:
            yield offset, buffer[:cut]
            offset += cut
        carry = buffer[cut:]
    if carry:
        yield offset, carry


def _read_lines_ending_in_lf(chunk: bytes, offset: int, found: Scan) -> None:
    """A chunk whose lines all end in \\n (or \\r\\n): lines start at 0 and after each \\n, so only the
    places that may hold a header or a diagnostic are looked at."""
    row, counted = found.rows, 0
    at = chunk.find(_PREFIX)
    while at >= 0:
        if at == 0 or chunk[at - 1] == 0x0A:
            row += chunk.count(b"\n", counted, at)
            counted = at
            _header(_line_at(chunk, at), offset + at, row, found)
        at = chunk.find(_PREFIX, at + 1)
    found.rows = row + chunk.count(b"\n", counted)
    found.diagnostics += [
        offset + start
        for start in lines_holding(chunk, (*_SEVERITIES, *_OWN_MARKERS))
        if DIAGNOSTIC.match(line := _line_at(chunk, start)) or OWN_OUTPUT.match(line)
    ]


def _line_at(chunk: bytes, start: int) -> str:
    stop = chunk.find(b"\n", start)
    line = chunk[start : len(chunk) if stop < 0 else stop].removesuffix(b"\r")
    return line.decode("utf-8")


def _read_any_lines(chunk: bytes, offset: int, found: Scan) -> None:
    """A chunk with a lone \\r (a line break to split_lines): line by line, counting bytes."""
    lines, endings = split_lines(chunk.decode("utf-8"))
    at = offset
    for row, (line, ending) in enumerate(zip(lines, endings), start=found.rows):
        if line.startswith(HEADER_PREFIX):
            _header(line, at, row, found)
        elif DIAGNOSTIC.match(line) or OWN_OUTPUT.match(line):
            found.diagnostics.append(at)
        at += len(line.encode("utf-8")) + len(ending)
    found.rows += len(lines)


def _header(line: str, at: int, row: int, found: Scan) -> None:
    header = parse_header(line)
    if header is not None:
        found.headers.append(HeaderLine(at, row, header))
