"""PyPTO's passes_dump/: 00_frontend.py, NN_after_<Pass>.py and an optional NN_after_<Pass>.log beside each."""

from __future__ import annotations

import itertools
import os
import re
from bisect import bisect_right
from pathlib import Path

from ..dump import Dump, Snapshot, read_warnings
from ..errors import DumpError
from ..linefacts import KEY_PARTS

# File naming is the compiler's contract, not language knowledge.
# File names may hold any character but "/" (a newline too): DOTALL and \Z, never "$" that stops before one.
_NUMBERED = re.compile(r"^(\d+)_.*\.(py|log)\Z", re.DOTALL)
_SNAPSHOT = re.compile(r"^(?P<label>\d+)_(?:(?P<frontend>frontend)|after_(?P<name>.+))\.py\Z", re.DOTALL)
# A warnings line: `file:line:col: warning: message` (PyPTO's log format).
_LOG_LINE = re.compile(r"(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<message>.*)")
FRONTEND = "00_frontend.py"
PASSES_DUMP = "passes_dump"  # where a compile output keeps the dump
INPUT_NAME = "frontend"  # the name of snapshot 0, what the first pass received
HELP = (
    "a PyPTO passes_dump/ directory: 00_frontend.py, 01_after_*.py, ... with no index gaps; or the compile "
    "output holding it, with one pipeline more per ptoas_passes/ codegen unit"
)
LISTED_GAP = 3  # a gap of up to this many indices is listed; a longer one is given by its bounds


def looks_like(path: Path) -> bool:
    return (path / FRONTEND).exists() or (path / PASSES_DUMP / FRONTEND).exists()


def read(path: Path) -> Dump:
    if not path.is_dir():
        raise DumpError(f"input is not a directory: {path}")
    root, redirected = path, ""
    if not (root / FRONTEND).exists() and (root / PASSES_DUMP).is_dir():
        root, redirected = root / PASSES_DUMP, PASSES_DUMP
    files = _numbered_files(root)
    snapshots = tuple(
        Snapshot(
            index=index,
            label=label,
            name=name,
            filename=filename,
            content=None,
            warnings=read_warnings(root / log) if (log := filename[:-3] + ".log") in files else None,
            path=root / filename,
        )
        for index, label, name, filename in _snapshot_entries(root, files)
    )
    return Dump(title=display_title(root), snapshots=snapshots, redirected=redirected, format="pypto")


def reads_path(given: Path, path: Path) -> bool:
    """Whether reading the dump given would read a file at path: a numbered .py or .log in its passes_dump."""
    folders = {os.path.realpath(given), os.path.realpath(given / PASSES_DUMP)}
    return os.path.realpath(path.parent) in folders and _NUMBERED.match(path.name) is not None


def display_title(root: Path) -> str:
    """A name for the report header: the folder's name (with its parent's for a generic one), never a full path."""
    resolved = root.resolve()
    if resolved.name in (PASSES_DUMP, "ptoas_passes") and resolved.parent.name:
        return f"{resolved.parent.name}/{resolved.name}"
    return resolved.name or "dump"


def anchors(warnings: str, filename: str) -> list[tuple[int, int, str]]:
    """(log line, snapshot line, message), 0-based, for warnings that name a line of the pass's own snapshot."""
    found = []
    for index, text in enumerate(warnings.split("\n")):
        match = _LOG_LINE.fullmatch(text.rstrip("\r"))
        if match and match["file"].rsplit("/", 1)[-1] == filename and int(match["line"]) > 0:
            found.append((index, int(match["line"]) - 1, match["message"].strip()))
    return found


def errors(warnings: str) -> list[int]:
    """The log lines that report an error (`file:line:col: error: message`), 0-based."""
    return [
        index
        for index, text in enumerate(warnings.split("\n"))
        if (match := _LOG_LINE.fullmatch(text.rstrip("\r"))) and match["message"].startswith("error:")
    ]


EXPLICIT, IMPLICIT = 1, 2  # a line's level marks: what it shows of the dump level (grammars/python/level.scm)


def level_marks(captures: dict, offsets: list[int], first: int, stop: int) -> list[tuple[int, int]]:
    """(row, mark) for each capture of level.scm, from a walk of rows [first, stop), that starts on one of them."""
    found = []
    for name, mark in (("explicit", EXPLICIT), ("implicit", IMPLICIT)):
        for node in captures.get(name, ()):
            row = bisect_right(offsets, node.start_byte, first, stop + 1) - 1  # cheaper than start_point
            if first <= row < stop:
                found.append((row, mark))
    return found


def implicit_keys(captures: dict, offsets: list[int], first: int, stop: int) -> list[tuple[int, str]]:
    """(row, key) for the rows of [first, stop) naming tile or distributed tensor types: the types as CONCISE
    prints them, less where they are placed (level.scm's @implicit.part leaves pl.MemRef out). A pass that keeps
    every changed line's key (addresses assigned, buffers reused, values renamed) changes no hidden layout:
    on the real dumps, exactly the passes whose EXPLICIT dump changes a type but for its MemRef change a key."""
    nodes = sorted([*captures.get("implicit", ()), *captures.get("implicit.part", ())], key=lambda n: n.start_byte)
    parts: dict[int, list[str]] = {}
    for node in nodes:
        row = bisect_right(offsets, node.start_byte, first, stop + 1) - 1
        if first <= row < stop:
            parts.setdefault(row, []).append(node.text.decode("utf-8", errors="replace"))
    return [(row, KEY_PARTS.join(found)) for row, found in parts.items()]


def dump_level(marks: int) -> str | None:
    """EXPLICIT or CONCISE (PassDumpLevel) from the marks of a snapshot's lines; None when it cannot tell."""
    if marks & EXPLICIT:
        return "EXPLICIT"
    return "CONCISE" if marks & IMPLICIT else None


def implicit_marks(level: str | None) -> int:
    """On a CONCISE dump, a line naming a tile or distributed tensor type hides its layout (@implicit)."""
    return IMPLICIT if level == "CONCISE" else 0


_REDUMP = "re-dump with RunConfig(dump_passes=PassDumpLevel.EXPLICIT) to see them."


def level_title(level: str) -> str:
    """What the level badge says: the PassDumpLevel, and at CONCISE what it hides and how to see it."""
    hidden = " Layouts and window buffers are implicit at CONCISE, so they render as unresolved: " + _REDUMP
    return f"Snapshots printed at PassDumpLevel.{level}." + (hidden if level == "CONCISE" else "")


def advice(level: str) -> str:
    """The note on a pass whose changed lines name a type whose layout the level leaves out."""
    if level != "CONCISE":
        return ""
    return "Tile types change here, and this dump is CONCISE, where layouts render as unresolved: " + _REDUMP


def _numbered_files(root: Path) -> set[str]:
    """Names of the numbered .py/.log entries; one that is not a readable regular file is an error, not a skip."""
    try:
        entries = list(os.scandir(root))
    except OSError as err:
        raise DumpError(f"cannot read directory {root}: {err.strerror or err}") from None
    names = set()
    for entry in entries:
        if not _NUMBERED.match(entry.name):
            continue
        if entry.is_dir():
            raise DumpError(f"{entry.name} in {root} is a directory, not a snapshot file")
        if not entry.is_file():
            kind = (
                "a broken symbolic link"
                if entry.is_symlink() and not os.path.exists(entry.path)
                else "not a regular file"
            )
            raise DumpError(f"{entry.name} in {root} is {kind}")
        names.add(entry.name)
    return names


def _snapshot_entries(root: Path, names: set[str]) -> list[tuple[int, str, str, str]]:
    by_index: dict[int, tuple[str, str, str]] = {}
    for filename in sorted(n for n in names if n.endswith(".py")):
        match = _SNAPSHOT.match(filename)
        if match is None:
            raise DumpError(
                f"unexpected snapshot name {filename} in {root} (want 00_frontend.py or NN_after_<Pass>.py)"
            )
        label = match["label"]
        index = int(label)
        if (index == 0) != bool(match["frontend"]):
            want = FRONTEND if index == 0 else f"{label}_after_<Pass>.py"
            raise DumpError(f"unexpected snapshot name {filename} in {root} (want {want})")
        if index in by_index:
            raise DumpError(f"two snapshots with index {label} in {root}: {by_index[index][2]} and {filename}")
        by_index[index] = (label, match["name"] or INPUT_NAME, filename)
    if 0 not in by_index:
        raise DumpError(f"no {FRONTEND} in {root}: is this a passes_dump/ directory?")
    indices = sorted(by_index)
    for previous, current in itertools.pairwise(indices):
        if current != previous + 1:
            raise DumpError(
                f"snapshot index gap in {root}: missing {_gap(previous, current, len(by_index[previous][0]))} "
                f"between {by_index[previous][2]} and {by_index[current][2]}"
            )
    return [(index, *by_index[index]) for index in indices]


def _gap(previous: int, current: int, width: int) -> str:
    """The missing indices, padded like the file before the gap; a long gap by its bounds (constant size)."""
    label = lambda i: str(i).zfill(width)
    if current - previous - 1 <= LISTED_GAP:
        return ", ".join(label(i) for i in range(previous + 1, current))
    return f"{label(previous + 1)} .. {label(current - 1)}"
