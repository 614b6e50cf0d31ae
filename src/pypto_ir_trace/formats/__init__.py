"""One record per dump format: how snapshots are found and ordered, which language they are printed in,
how warnings name lines. The pipeline after discovery (structure, diff, model, render) reads only these
records, never a format's name."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..dump import Dump, DumpError
from ..languages import LANGUAGES, Language
from . import mlir, pypto


@dataclass(frozen=True)
class Format:
    name: str  # the --format choice
    description: str  # what the user pointed at, for the "reading ..." note
    language: Language
    looks_like: Callable[[Path], bool]  # cheap detection from names and first lines
    read: Callable[[Path], Dump]
    # (warnings text, snapshot file name) -> [(log line, snapshot line, message)], 0-based
    anchors: Callable[[str, str], list[tuple[int, int, str]]]
    # The level of detail the compiler printed at (None: the format has none): the language's queries that
    # show it (walked with the highlights), the marks their captures give rows, (captures, line offsets,
    # first, stop) -> [(row, mark bits)], and the level the or-ed marks of a snapshot's lines say
    level_queries: tuple[str, ...] = ()
    level_marks: Callable[[dict, list[int], int, int], list[tuple[int, int]]] | None = None
    dump_level: Callable[[int], str | None] | None = None
    # level -> the marks of lines naming what that level leaves out (the advice to re-dump); 0: none
    implicit_marks: Callable[[str | None], int] | None = None


FORMATS = {
    record.name: record
    for record in (
        Format(
            "pypto",
            "a PyPTO passes_dump",
            LANGUAGES["python"],
            pypto.looks_like,
            pypto.read,
            pypto.anchors,
            ("level",),
            pypto.level_marks,
            pypto.dump_level,
            pypto.implicit_marks,
        ),
        Format("mlir-tree", "an MLIR tree dump", LANGUAGES["mlir"], mlir.looks_like_tree, mlir.read_tree, mlir.anchors),
        Format(
            "mlir-stream",
            "an MLIR after-all stream",
            LANGUAGES["mlir"],
            mlir.looks_like_stream,
            mlir.read_stream,
            mlir.anchors,
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
        return (_read(FORMATS[name], root),)
    units = units_of(root)
    if units.is_dir():
        pipelines = [replace(_read(FORMATS["pypto"], root), name="PyPTO")] if FORMATS["pypto"].looks_like(root) else []
        return (*pipelines, *_units(units))
    for record in FORMATS.values():
        if record.looks_like(root):
            return (_read(record, root),)
    if root.is_file():  # the one format that is a file, with its first header line past where detection looks
        try:
            return (_read(FORMATS["mlir-stream"], root),)
        except DumpError as err:
            raise DumpError(f"input is not a directory: {root}; as an MLIR after-all stream: {err}") from None
    if not root.is_dir():
        raise DumpError(f"input is not a directory: {root}")
    if not _holds_a_file(root):
        raise DumpError(
            f"{root} holds no file: nothing to read (a passes_dump/ starts with 00_frontend.py; an MLIR tree dir "
            "stays empty when the compiler printed an error instead, e.g. --mlir-print-ir-module-scope without "
            "--mlir-disable-threading)"
        )
    return (_read(FORMATS["pypto"], root),)  # its error says what a passes_dump/ should hold


def units_of(path: str | Path) -> Path:
    """Where a compile output's ptoas units are: `path` itself when it is ptoas_passes/, else path/ptoas_passes."""
    root = Path(path)
    return root if root.name == PTOAS and root.is_dir() else root / PTOAS


def _holds_a_file(root: Path) -> bool:
    """Anything but folders, at any depth (stops at the first)."""
    return any(files for _, _, files in os.walk(root))


def _read(record: Format, root: Path) -> Dump:
    dump = record.read(root)
    return dump if dump.format == record.name else replace(dump, format=record.name)


def _units(units: Path) -> list[Dump]:
    """One MLIR tree per codegen unit, in name order; a unit's folder name names its pipeline."""
    try:
        folders = sorted(entry for entry in units.iterdir() if entry.is_dir())
    except OSError as err:
        raise DumpError(f"cannot read directory {units}: {err.strerror or err}") from None
    if not folders:
        raise DumpError(f"no codegen unit folder in {units}: is dump_ptoas_passes on?")
    return [replace(_read(FORMATS["mlir-tree"], folder), name=folder.name) for folder in folders]
