"""One record per dump format: how snapshots are found and ordered, which language they are printed in,
how warnings name lines. The pipeline after discovery (structure, diff, model, render) reads only these
records, never a format's name."""

from __future__ import annotations

import itertools
import mmap
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from ..dump import Dump, Part, told_apart
from ..errors import DumpError
from ..languages import LANGUAGES, Language
from . import llvm, mlir, pypto
from .pypto import display_title as display_title  # a compile output's report is titled like a dump


@dataclass(frozen=True, kw_only=True)
class DumpLevel:
    """The level of detail a format's compiler printed at, read from what the snapshots' lines show."""

    queries: tuple[str, ...]  # the language's queries that show it (walked with the highlights)
    # (captures, line offsets, first, stop) -> [(row, mark bits)]: the marks the queries' captures give rows
    marks: Callable[[dict, list[int], int, int], list[tuple[int, int]]]
    of: Callable[[int], str | None]  # the level the or-ed marks of a snapshot's lines say (None: cannot tell)
    implicit: Callable[[str | None], int]  # level -> the marks of lines naming what it leaves out; 0: none
    # (captures, line offsets, first, stop) -> [(row, key)] for rows naming what a level may leave out: rows of
    # one key name it alike in all the level prints of it that bears on what it hides (a change keeping the
    # key cannot have changed that)
    keys: Callable[[dict, list[int], int, int], list[tuple[int, str]]]
    title: Callable[[str], str]  # level -> what the viewer's level badge says of it
    advice: Callable[[str], str]  # level -> the note on a pass changing a line it leaves implicit ("": none)


@dataclass(frozen=True, kw_only=True)
class Format:
    name: str  # the --format choice
    description: str  # what the user pointed at, for the "reading ..." note
    help: str  # what such an input is, for --help
    language: Language
    looks_like: Callable[[Path], bool]  # cheap detection from names and first lines
    read: Callable[[Path], tuple[Dump, ...]]  # its pipelines: one, or one per chunk of a --split-input-file stream
    # (warnings text, snapshot file name) -> [(log line, snapshot line, message)], 0-based
    anchors: Callable[[str, str], list[tuple[int, int, str]]]
    errors: Callable[[str], list[int]]  # warnings text -> the log lines (0-based) that start an error diagnostic
    # (the input given, a path) -> whether reading that input reads a file at path (a report written there
    # would be read by the next run): beyond the files the dump was read from, those it would read if they existed
    reads_path: Callable[[Path, Path], bool]
    # Its input is one file: a file no record recognises (its first header past where detection looks) is
    # still read by it
    reads_file: bool = False
    # Detection that looks at any depth: whether the dump it sees at a directory lies below it, in a folder (so
    # a directory of programs holding such dumps is not taken for one); None: detection looks at the path only
    found_below: Callable[[Path], bool] | None = None
    level: DumpLevel | None = None  # None: the format prints at one level
    # A stream format: what each of its header lines holds (found fast), how they start, and how it reads a part of
    # a file (a file holding two formats' dumps, Triton's MLIR and then its LLVM IR, is read a part at a time)
    dump_mark: bytes = b""
    dump_starts: tuple[bytes, ...] = ()
    log_starts: tuple[bytes, ...] = ()  # how the lines it logs before a dump start: a part starts with them
    read_part: Callable[[Path, Part], tuple[Dump, ...]] | None = None


def _one(read: Callable[[Path], Dump]) -> Callable[[Path], tuple[Dump, ...]]:
    """A format whose input always holds one pipeline."""
    return lambda path: (read(path),)


def _same_file(given: Path, path: Path) -> bool:
    """A format whose input is one file reads that file only."""
    return os.path.realpath(given) == os.path.realpath(path)


def _later(package: ModuleType, name: str) -> Callable:
    """The package's function of this name, looked up when called: the MLIR and LLVM packages import their
    readers when first used, and a run that reads neither never does."""
    return lambda *args: getattr(package, name)(*args)


def _mlir(**fields: Any) -> Format:
    """An MLIR format: the language its dumps are printed in, its diagnostics and its input are shared."""
    return Format(
        language=LANGUAGES["mlir"],
        anchors=_later(mlir, "anchors"),
        errors=_later(mlir, "errors"),
        **fields,
    )


FORMATS = {
    record.name: record
    for record in (
        Format(
            name="pypto",
            description="a PyPTO passes_dump",
            help=pypto.HELP,
            language=LANGUAGES["python"],
            looks_like=pypto.looks_like,
            read=_one(pypto.read),
            anchors=pypto.anchors,
            errors=pypto.errors,
            reads_path=pypto.reads_path,
            level=DumpLevel(
                queries=("level",),
                marks=pypto.level_marks,
                of=pypto.dump_level,
                implicit=pypto.implicit_marks,
                keys=pypto.implicit_keys,
                title=pypto.level_title,
                advice=pypto.advice,
            ),
        ),
        _mlir(
            name="mlir-tree",
            description="an MLIR tree dump",
            help=mlir.TREE_HELP,
            looks_like=_later(mlir, "looks_like_tree"),
            read=_one(_later(mlir, "read_tree")),
            reads_path=_later(mlir, "tree_reads_path"),
            found_below=_later(mlir, "tree_below"),
        ),
        _mlir(
            name="mlir-stream",
            description="an MLIR after-all stream",
            help=mlir.STREAM_HELP,
            looks_like=_later(mlir, "looks_like_stream"),
            read=_later(mlir, "read_chunks"),
            reads_path=_same_file,
            reads_file=True,
            dump_mark=mlir.HEADER_PREFIX.encode(),
            dump_starts=(mlir.HEADER_PREFIX.encode(),),
            read_part=_later(mlir, "read_chunks"),
        ),
        Format(
            name="llvm",
            description="an LLVM pass dump stream",
            help=llvm.HELP,
            language=LANGUAGES["llvm"],
            looks_like=_later(llvm, "looks_like"),
            read=_later(llvm, "read"),
            anchors=llvm.anchors,
            errors=llvm.errors,
            reads_path=_same_file,
            reads_file=True,
            dump_mark=b"*** IR ",
            dump_starts=llvm.PREFIXES,
            log_starts=llvm.LOG_STARTS,
            read_part=_later(llvm, "read"),
        ),
    )
}


def format_of(dump: Dump) -> Format:
    return FORMATS[dump.format]


PTOAS = "ptoas_passes"  # PyPTO's compile output: ptoas_passes/<codegen unit>/ holds one MLIR tree per unit


def load(path: str | Path, name: str | None = None) -> tuple[Dump, ...]:
    """The pipelines at `path`: a PyPTO compile output directory gives its passes_dump/ and one pipeline per
    ptoas codegen unit; anything else is one dump, read by the named format or the first whose layout it has."""
    root = Path(path)
    if not root.exists():
        raise DumpError(f"input directory does not exist: {root}")
    if name is not None:
        return _read_as(FORMATS[name], root)
    units = units_of(root)
    if units.is_dir():
        pypto_ = FORMATS["pypto"]
        pipelines = [replace(dump, name="PyPTO") for dump in _read(pypto_, root)] if pypto_.looks_like(root) else []
        return (*pipelines, *_units(units))
    for record in FORMATS.values():
        if record.looks_like(root):
            parts = _parts(root, record) if record.dump_starts else []
            return _read_parts(root, parts) if len(parts) > 1 else _read(record, root)
    if root.is_file():
        return _read_file(root)
    if not root.is_dir():
        raise DumpError(f"input is not a directory: {root}")
    if (one := one_file(root)) is not None:  # a program's folder holding its stream file
        return tuple(
            replace(dump, notes=(f"reading {one.name}, the one file in {root}", *dump.notes))
            for dump in _read_file(one)
        )
    if not _holds_a_file(root):
        raise DumpError(
            f"{root} holds no file: nothing to read (a passes_dump/ starts with 00_frontend.py; an MLIR tree dir "
            "stays empty when the compiler printed an error instead, e.g. --mlir-print-ir-module-scope without "
            "--mlir-disable-threading)"
        )
    return _read(FORMATS["pypto"], root)  # its error says what a passes_dump/ should hold


def units_of(path: str | Path) -> Path:
    """Where a compile output's ptoas units are: `path` itself when it is ptoas_passes/, else path/ptoas_passes."""
    root = Path(path)
    return root if root.name == PTOAS and root.is_dir() else root / PTOAS


def one_file(root: Path) -> Path | None:
    """The file a directory holds when it holds nothing else and a format reads it alone."""
    try:
        entries = list(root.iterdir())
    except OSError as err:
        raise DumpError(f"cannot read directory {root}: {err.strerror or err}") from None
    if len(entries) != 1 or not entries[0].is_file():
        return None
    return entries[0] if any(r.reads_file and r.looks_like(entries[0]) for r in FORMATS.values()) else None


def _holds_a_file(root: Path) -> bool:
    """Anything but folders, at any depth (stops at the first)."""
    return any(files for _, _, files in os.walk(root))


def _read(record: Format, root: Path) -> tuple[Dump, ...]:
    return tuple(
        dump if dump.format == record.name else replace(dump, format=record.name) for dump in record.read(root)
    )


_SHORT = {"mlir-stream": "MLIR", "llvm": "LLVM IR"}  # a part's pipeline, by the format that printed it


def _parts(root: Path, record: Format) -> list[tuple[Format, Part]]:
    """A stream file `record` detected, cut where the format whose header lines start its dumps changes, in file
    order (a Triton compile prints its MLIR dumps, then its LLVM IR's); a part starts at its first header line,
    with the lines its format logs above it, and what comes before the first belongs to the first part. [] when no
    other stream format's header words are in it: one memory-mapped search (0.24 s for 458 MB, where reading the
    file to look took 0.34 s)."""
    others = [other.dump_mark for other in FORMATS.values() if other.dump_mark and other is not record]
    try:
        with root.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            if not any(mapped.find(mark) >= 0 for mark in others):
                return []
            starts: list[tuple[int, Format]] = []  # where each part starts, by its format
            for at, printed in _header_starts(mapped):
                if not starts or starts[-1][1] is not printed:
                    starts.append((_logged_above(mapped, at, printed.log_starts), printed))
            bounds = [0, *(at for at, _ in starts[1:])]  # a part's lines count from the file's start
            rows = [0, *itertools.accumulate(mapped[a:b].count(b"\n") for a, b in itertools.pairwise(bounds))]
    except (OSError, ValueError):  # unreadable (its reader says so), or empty: nothing to map
        return []
    return [
        (printed, Part(start, stop, row))
        for (_, printed), start, stop, row in zip(starts, bounds, [*bounds[1:], None], rows)
    ]


def _header_starts(mapped: mmap.mmap) -> list[tuple[int, Format]]:
    """(offset, format) of each line of the file that starts a dump of one of the stream formats, in order."""
    found = []
    for record in FORMATS.values():
        for mark in record.dump_starts:
            found += [(0, record)] if mapped[: len(mark)] == mark else []
            at = mapped.find(b"\n" + mark)
            while at >= 0:
                found.append((at + 1, record))
                at = mapped.find(b"\n" + mark, at + 1)
    return sorted(found, key=lambda item: item[0])


def _logged_above(mapped: mmap.mmap, at: int, starts: tuple[bytes, ...]) -> int:
    """Where the lines right above a header at `at` that its format logs before a dump start (else `at`)."""
    while at > 0:
        above = mapped.rfind(b"\n", 0, at - 1) + 1
        if not mapped[above:at].startswith(starts):
            return at
        at = above
    return at


def _read_parts(root: Path, parts: list[tuple[Format, Part]]) -> tuple[Dump, ...]:
    """Each part read by its format, its pipelines named by that format (and their own names)."""
    said = (
        f"the stream holds the dumps of {len(parts)} parts, each printed by one compiler "
        f"({', '.join(_SHORT[record.name] for record, _ in parts)}): each part is read as its own pipeline(s)"
    )
    pipelines = []
    for (record, part), short in zip(parts, told_apart([_SHORT[record.name] for record, _ in parts])):
        assert record.read_part is not None, "a stream format reads a part"
        for dump in record.read_part(root, part):
            named = f"{short}: {dump.name}" if dump.name else short
            pipelines.append(replace(dump, name=named, format=record.name, notes=(said, *dump.notes)))
    return tuple(pipelines)


def _read_as(record: Format, root: Path) -> tuple[Dump, ...]:
    """Read by the format the user named; when it cannot and the input has another format's layout, the
    error names that format and how to pick it (what went wrong reading it as the wrong one is beside the point)."""
    try:
        return _read(record, root)
    except DumpError:
        other = next((r for r in FORMATS.values() if r is not record and r.looks_like(root)), None)
        if other is None:
            raise
    raise DumpError(
        f"{root} is not {record.description}: it looks like {other.description} "
        f"(--format {other.name}, or leave --format out to detect it)"
    )


def _read_file(root: Path) -> tuple[Dump, ...]:
    """A file no detection recognised, read by each format whose input is a file; its errors name them all."""
    errors = []
    for record in FORMATS.values():
        if record.reads_file:
            try:
                return _read(record, root)
            except DumpError as err:
                errors.append(f"; as {record.description}: {err}")
    raise DumpError(f"input is not a directory: {root}{''.join(errors)}")


def _units(units: Path) -> list[Dump]:
    """One MLIR tree per codegen unit, in name order; a unit's folder name names its pipeline."""
    try:
        folders = sorted(entry for entry in units.iterdir() if entry.is_dir())
    except OSError as err:
        raise DumpError(f"cannot read directory {units}: {err.strerror or err}") from None
    if not folders:
        raise DumpError(f"no codegen unit folder in {units}: is dump_ptoas_passes on?")
    return [replace(dump, name=folder.name) for folder in folders for dump in _read(FORMATS["mlir-tree"], folder)]
