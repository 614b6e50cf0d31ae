"""The records every dump format produces: snapshots in pipeline order, read lazily, and their text."""

from __future__ import annotations

import os
import re
import tempfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from .errors import DumpError

_NEWLINE = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


class Source(Protocol):
    """A snapshot's text that is not a file of its own, read only when asked (dumps reach GBs)."""

    def read(self) -> str: ...


@dataclass(frozen=True)
class Stretch:
    """Bytes [start, stop) of a file that holds many dumps (a stream), read only when asked: the
    file may be far larger than memory, the distinct text it holds is not."""

    path: Path
    start: int
    stop: int

    def read(self) -> str:
        """The stretch decoded (strict UTF-8, naming the file and offset), as its lines each ended by \\n: how
        a stream's dumps have always been given, whatever newlines the file has (\\r\\n, \\r, none at the end)."""
        try:
            data = _read_at(self.path, self.start, self.stop)
        except OSError as err:
            raise DumpError(f"cannot read {self.path}: {err.strerror or err}") from None
        text = decode(data, self.path, self.start)
        if "\r" in text or not text.endswith("\n"):
            text = "".join(line + "\n" for line in split_lines(text)[0])
        return text


def _read_at(path: Path, start: int, stop: int) -> bytes:
    """Bytes [start, stop) of a file (fewer at its end), by a bare descriptor: a stream's dumps are read one by one,
    thousands of them, and a Python file object costs three times the read."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return _pread(fd, start, stop)
    finally:
        os.close(fd)


def _pread(fd: int, start: int, stop: int) -> bytes:
    """Bytes [start, stop) of an open file (fewer at its end), however many reads the system gives them in."""
    parts = []
    while start < stop and (part := os.pread(fd, stop - start, start)):
        parts.append(part)
        start += len(part)
    return b"".join(parts)


@dataclass(frozen=True)
class Part:
    """Bytes [start, stop) of a stream file (stop None: to its end) that one format printed, starting at line `row`
    (0-based): a Triton compile prints its MLIR dumps, then its LLVM IR's."""

    start: int = 0
    stop: int | None = None
    row: int = 0


WHOLE = Part()


def blocks(handle: IO[bytes], part: Part, size: int) -> Iterator[bytes]:
    """The part's bytes from an open file, `size` at a time (the last block shorter)."""
    handle.seek(part.start)
    left = -1 if part.stop is None else part.stop - part.start  # bytes still to read (-1: to the end)
    while left and (block := handle.read(size if left < 0 else min(size, left))):
        left -= len(block) if left > 0 else 0
        yield block


def told_apart(names: list[str]) -> list[str]:
    """Pipeline names, each repeated one followed by its place among those of that name (`MLIR (2)`)."""
    seen: dict[str, int] = {}
    counted = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        counted.append(name if names.count(name) == 1 else f"{name} ({seen[name]})")
    return counted


@dataclass(frozen=True)
class Packed:
    """A text the format made (an op cut out of a module, a program spliced together), kept deflated until read:
    such texts are held from discovery to the end of the build, and IREE mlp's local stream holds 8.3 MB of them
    (1.7 MB deflated, 0.1 s to deflate and inflate)."""

    data: bytes

    @classmethod
    def of(cls, text: str) -> Packed:
        return cls(zlib.compress(text.encode("utf-8", errors="surrogatepass"), 1))

    def read(self) -> str:
        return zlib.decompress(self.data).decode("utf-8", errors="surrogatepass")


class Spool:
    """Texts the format made, kept in an unnamed temporary file (unlinked at once: nothing is left behind) until
    read: held from discovery to the end of the build, they take no memory there, and writing and reading them
    back costs a tenth of deflating and inflating them (the sparsifier's local dumps shown in the whole IR, 12.7 MB:
    265 M instructions of zlib). Where no temporary file can be written, a text is kept deflated (`Packed`)."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None  # opened by the first text, closed when the spool is let go
        self._size = 0
        self._failed = False

    def put(self, text: str) -> Source:
        data = text.encode("utf-8", errors="surrogatepass")
        if not self._failed:
            try:
                if self._file is None:
                    self._file = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the spool)
                written = os.pwrite(self._file.fileno(), data, self._size)
                if written == len(data):
                    self._size += written
                    return _Spooled(self, self._size - written, self._size)
            except OSError:  # no temporary folder, or a full one: the rest is kept deflated
                pass
            self._failed = True
        return Packed(zlib.compress(data, 1))

    def read(self, start: int, stop: int) -> str:
        assert self._file is not None, "a spooled text was written"
        try:
            data = _pread(self._file.fileno(), start, stop)
        except OSError as err:
            raise DumpError(f"cannot read back a text kept in a temporary file: {err.strerror or err}") from None
        return data.decode("utf-8", errors="surrogatepass")


@dataclass(frozen=True)
class _Spooled:
    spool: Spool
    start: int
    stop: int

    def read(self) -> str:
        return self.spool.read(self.start, self.stop)


def packed(texts: list[str | None]) -> list[Packed | None]:
    """Each text packed, equal texts as one object."""
    made: dict[str, Packed] = {}
    return [None if text is None else made.get(text) or made.setdefault(text, Packed.of(text)) for text in texts]


@dataclass(frozen=True)
class Snapshot:
    index: int  # position in the pipeline; 0 is the input the first pass received
    label: str  # how users name it: "03" for 03_after_X.py; for MLIR the running position
    name: str  # the pass as users know it: "FlattenCallExpr", "canonicalize"; "frontend"/"input" for index 0
    filename: str  # display name, relative to the dump root
    content: str | None  # the text, or None to read it from `source` or `path` when asked (dumps reach GBs)
    warnings: str | None  # what the pass emitted as warnings / diagnostics, or None
    path: Path | None = None
    detail: str = ""  # shown beside the name: e.g. "Canonicalizer on func.func @matmul", "local scope"
    failed: bool = False  # the pass reported failure: the pipeline stopped here
    printed_before: bool = False  # a Before dump (--print-before-all): the text the pass received
    base: int | None = None  # index of the earlier snapshot this one is diffed against; None: the one before it
    based_on: Source | None = None  # an explicit text to diff against instead (e.g. an op cut out of a module dump)
    base_name: str = ""  # what base_text is, where the Before pane names its file ("@f cut out of 3_cse.mlir")
    header: str = ""  # the pass as its header line names it in full, for a tooltip ("": as `name` and `detail` say)
    source: Source | None = None  # where the text lies when it is not `path` as a whole (a stretch of a stream)
    # the text shown and diffed instead of the dump's own (an MLIR local dump put into the whole IR as it stands)
    shown: Source | None = None

    @property
    def text(self) -> str:
        """Decoded, without a BOM, newlines as in the file (as its source gives them); or the text shown instead."""
        if self.content is not None:
            return self.content
        if self.shown is not None:
            return self.shown.read()
        return self.source.read() if self.source is not None else read_text(snapshot_path(self.path))

    @property
    def base_text(self) -> str | None:
        """The explicit text this one is diffed against, if any (`based_on`, read)."""
        return self.based_on.read() if self.based_on is not None else None

    @property
    def is_input(self) -> bool:
        return self.index == 0


@dataclass(frozen=True)
class Dump:
    title: str  # display name, never an absolute path
    snapshots: tuple[Snapshot, ...]
    redirected: str = ""  # the folder inside the given directory the dump was found in ("": the directory itself)
    format: str = field(kw_only=True)  # the name of the format record that read it
    notes: tuple[str, ...] = ()  # what the user must be told (ambiguous order, overwritten files); one line each
    name: str = ""  # the pipeline's name where a report holds several ("PyPTO", a codegen unit); default: title
    files: tuple[Path, ...] = ()  # files read besides the snapshots' own (an MLIR stream): never written over

    @property
    def input_file(self) -> str:
        return self.snapshots[0].filename


def joined_lines(lines: Sequence[str]) -> str:
    """The text of these lines, each ended by a newline (made in one copy: joined, then a newline added, is two)."""
    return "\n".join([*lines, ""])


def split_lines(text: str) -> tuple[list[str], list[str]]:
    """Split on \\r\\n, \\r and \\n only (not str.splitlines' form feeds and U+2028) -> (lines, endings).

    endings[i] terminates lines[i]; the last line's ending is "" when the file has no final newline.
    A text that ends with a newline has no empty last line.
    """
    if "\r" not in text:  # the common case, at C speed
        lines = text.split("\n")
        endings = ["\n"] * len(lines)
        if lines[-1]:
            endings[-1] = ""
        else:
            lines.pop()
            endings.pop()
        return lines, endings
    lines = []
    endings = []
    start = 0
    for match in _NEWLINE.finditer(text):
        lines.append(text[start : match.start()])
        endings.append(match.group())
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
        endings.append("")
    return lines, endings


# The line that opens a report a compiler built on LLVM prints when it ends: a banner (-ftime-report, --mlir-timing,
# -stats), clang's `-print-stats` heading, or a release build's answer to -stats. The lines from it on are that
# report, no dump's; REPORT_MARKERS find such lines at C speed.
REPORT_START = re.compile(r"^(?:===-{3,}===|STATISTICS:|Statistics are disabled\.  Build with asserts.*)$")
REPORT_MARKERS = (b"===---", b"STATISTICS:", b"Statistics are disabled.")


def between_dumps(
    stretch: Stretch,
    diagnostic: re.Pattern[str],
    left_out: re.Pattern[str] | None = None,
    reports: re.Pattern[str] = REPORT_START,
) -> tuple[str | None, int, int]:
    """What the compiler printed between two dumps, as a pass's warnings (None when blank), but its reports (from a
    line `reports` matches to the next line `diagnostic` matches: a --split-input-file run reports after each chunk,
    before the next one's diagnostics) and the lines `left_out` matches (a pass manager's log); and how many lines
    of each were left out."""
    lines = stretch.read().removesuffix("\n").split("\n") if stretch.stop > stretch.start else []
    kept: list[str] = []
    reporting, reported = False, 0
    for line in lines:
        reporting = (reporting or reports.match(line) is not None) and not diagnostic.match(line)
        if reporting:
            reported += 1
        elif left_out is None or not left_out.match(line):
            kept.append(line)
    text = "\n".join(kept).strip("\n")
    return (text + "\n" if text.strip() else None), reported, len(lines) - reported - len(kept)


def lines_holding(chunk: bytes, markers: Sequence[bytes]) -> set[int]:
    """Where the lines of a chunk of a stream that hold any of the markers start (a diagnostic's `: warning: `),
    found at C speed: a stream may hold millions of lines, few of them such."""
    starts = set()
    for marker in markers:
        at = chunk.find(marker)
        while at >= 0:
            starts.add(chunk.rfind(b"\n", 0, at) + 1)
            at = chunk.find(marker, at + 1)
    return starts


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise DumpError(f"cannot read {path}: {err.strerror or err}") from None


def snapshot_path(path: Path | None) -> Path:
    """A snapshot without content has a path: discovery gives one or the other."""
    assert path is not None, "a snapshot has content or a path"
    return path


def read_text(path: Path) -> str:
    """A snapshot's text: strict UTF-8 (a wrong byte names the file and offset), BOM dropped."""
    text = decode(read_bytes(path), path)
    return text[1:] if text.startswith(_BOM) else text


def decode(data: bytes, path: Path, offset: int = 0) -> str:
    """Strict UTF-8; a wrong byte names the file and its offset there (data starts at offset)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DumpError(
            f"{path} is not UTF-8 text (invalid byte 0x{data[err.start]:02x} at offset {offset + err.start})"
        ) from None


def read_warnings(path: Path) -> str:
    """Warnings are informative: a stray undecodable byte must not cost the user the report."""
    text = read_bytes(path).decode("utf-8", errors="replace")
    return text[1:] if text.startswith(_BOM) else text
