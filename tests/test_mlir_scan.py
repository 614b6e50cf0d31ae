"""Reading a stream a chunk at a time (formats/mlir/scan.py): the dumps are cut exactly where reading the whole
file as one text cuts them, whatever its newlines and wherever a chunk ends, and the file is never held whole."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from dumptools import FIXTURES
from modeltools import build, not_rebuilt
from pypto_ir_trace.dump import read_text, split_lines
from pypto_ir_trace.errors import DumpError
from pypto_ir_trace.formats import mlir
from pypto_ir_trace.formats.mlir import scan

HEADER = "// -----// IR Dump After {cls} ({arg}) ('builtin.module' operation) //----- //"
DIAGNOSTIC = re.compile(r"^(<unknown>|[^\s:\"]+?):\d+(:\d+)?: (error|warning|note|remark): ")


def whole_file_reading(path: Path) -> list[tuple[str, str, str | None]]:
    """The oracle: (file name and line, text, warnings) per dump, the file read as one text and split into lines, each dump from its
    header to its first diagnostic line, the lines until the next header the next dump's warnings."""
    lines = split_lines(read_text(path))[0]
    starts = [i for i, line in enumerate(lines) if line.startswith(mlir.HEADER_PREFIX) and mlir.parse_header(line)]
    joined = lambda part: "".join(line + "\n" for line in part)
    dumps, pending = [], joined(lines[: starts[0]]).strip("\n")
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(lines)
        cut = next((i for i in range(start + 1, stop) if DIAGNOSTIC.match(lines[i])), stop)
        dumps.append(
            [f"{path.name}:{start + 1}", joined(lines[start + 1 : cut]), pending + "\n" if pending.strip() else None]
        )
        pending = joined(lines[cut:stop]).strip("\n")
    if pending.strip():
        dumps[-1][2] = (dumps[-1][2] or "") + pending + "\n"
    return [tuple(d) for d in dumps]


def stream_reading(path: Path) -> list[tuple[str, str, str | None]]:
    """(file name and line, text as printed, warnings) per dump (a local dump may be shown in the whole IR)."""
    return [(s.filename, s.source.read(), s.warnings) for s in mlir.read_stream(path).snapshots[1:]]


def sample(newline: str = "\n", final: bool = True) -> str:
    """Three dumps with non-ASCII text, a warning before the second and diagnostics after the last."""
    parts = [
        HEADER.format(cls="Canonicalizer", arg="canonicalize"),
        'module {\n  func.func @f() {\n    "x.op"() {s = "naïve ∑ 😀"} : () -> ()\n    return\n  }\n}',
        "",
        "input.mlir:3:5: warning: odd\n  %0 = arith.addi\n  ^",
        HEADER.format(cls="CSE", arg="cse"),
        "module {\n  func.func @f() {\n    return\n  }\n}",
        "// not a header: // -----// IR Dump After CSE (cse) //----- //",
        HEADER.format(cls="Inliner", arg="inline"),
        "module {\n}",
        "<unknown>:0: error: late",
    ]
    text = "\n".join(parts).replace("\n", newline)
    return text + newline if final else text


@pytest.mark.parametrize(
    "name, data",
    [
        ("lf", sample().encode()),
        ("crlf", sample("\r\n").encode()),
        ("cr", sample("\r").encode()),
        ("no final newline", sample(final=False).encode()),
        ("crlf, no final newline", sample("\r\n", final=False).encode()),
        ("byte order mark", b"\xef\xbb\xbf" + sample().encode()),
        ("mixed", sample().replace("module {\n}", "module {\r}\r\n").encode()),
    ],
)
def test_a_stream_is_cut_as_its_whole_text_is(tmp_path, name, data):
    path = tmp_path / "stream.txt"
    path.write_bytes(data)
    read = stream_reading(path)
    assert read == whole_file_reading(path)
    assert len(read) == 3 and read[1][2].startswith("input.mlir:3:5: warning: odd") and "∑" in read[0][1]
    assert [name for name, _, _ in read] == ["stream.txt:1", "stream.txt:12", "stream.txt:19"]


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 16, 61, 4096])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_wherever_a_chunk_ends_the_dumps_are_the_same(tmp_path, monkeypatch, chunk, newline):
    """Chunks end inside headers, inside \\r\\n pairs, inside diagnostics and inside multibyte characters."""
    path = tmp_path / "stream.txt"
    path.write_bytes(("\ufeff" + sample(newline) * 3).encode())
    expected = whole_file_reading(path)
    monkeypatch.setattr(scan, "CHUNK", chunk)
    assert stream_reading(path) == expected


def test_every_fixture_stream_in_small_chunks(monkeypatch):
    for path in sorted((FIXTURES / "mlir").glob("*/*.txt")):
        if "threading" in path.name:
            continue
        expected = stream_reading(path)
        assert expected == whole_file_reading(path)
        monkeypatch.setattr(scan, "CHUNK", 97)
        assert stream_reading(path) == expected
        monkeypatch.undo()


def test_bad_utf8_past_the_first_chunk_names_its_offset(tmp_path, monkeypatch):
    data = sample().encode() * 4
    at = len(data) - 20
    path = tmp_path / "stream.txt"
    path.write_bytes(data[:at] + b"\xff" + data[at:])
    monkeypatch.setattr(scan, "CHUNK", 64)
    with pytest.raises(
        DumpError, match=f"^{re.escape(str(path))} is not UTF-8 text \\(invalid byte 0xff at offset {at}\\)$"
    ):
        mlir.read_stream(path)


def test_the_stream_is_read_a_dump_at_a_time(tmp_path, monkeypatch):
    """No read takes more than a chunk or one dump's stretch: memory follows the distinct text, not the file."""
    path = tmp_path / "stream.txt"
    path.write_bytes(sample().encode() * 50)
    monkeypatch.setattr(scan, "CHUNK", 256)
    sizes: list[int] = []
    real_open = Path.open

    def spying_open(self, mode="r", *args, **kwargs):
        handle = real_open(self, mode, *args, **kwargs)
        if self == path and "b" in mode:
            read = handle.read
            handle.read = lambda size=-1: sizes.append(size) or read(size)  # type: ignore[method-assign]
        return handle

    monkeypatch.setattr(Path, "open", spying_open)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail(f"{self} read whole"))
    dump = mlir.read_stream(path)
    assert all(s.content is None and s.source is not None for s in dump.snapshots[1:])  # read when asked
    assert not_rebuilt(build(dump), dump) == []
    largest_dump = max(len(s.source.dumped().encode()) for s in dump.snapshots[1:])
    assert sizes and all(0 <= size <= max(256, largest_dump) for size in sizes)


def test_a_header_split_across_chunks_still_starts_a_dump(tmp_path, monkeypatch):
    head = "input.mlir:1:1: note: before\n"
    path = tmp_path / "stream.txt"
    path.write_bytes((head + sample()).encode())
    where = len(head) + len("// -----// IR Du")
    monkeypatch.setattr(scan, "CHUNK", where)
    chunks = list(scan._chunks(io.BytesIO(path.read_bytes())))
    assert chunks[0] == (0, head.encode())  # the header's first bytes wait for the rest of their line
    assert stream_reading(path) == whole_file_reading(path)
    assert stream_reading(path)[0][2] == "input.mlir:1:1: note: before\n"
