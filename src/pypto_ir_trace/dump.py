"""Discovery: read a passes_dump/ directory into ordered, immutable snapshots."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

# File naming is the compiler's contract, not language knowledge: 00_frontend.py, NN_after_<Pass>.py.
_NUMBERED = re.compile(r"^(\d+)_.*\.py$")
_SNAPSHOT = re.compile(r"^(?P<label>\d+)_(?:(?P<frontend>frontend)|after_(?P<name>.+))\.py$")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


class DumpError(Exception):
    """The dump directory or one of its files cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class Snapshot:
    index: int  # position in the pipeline; 0 is the input the first pass received
    label: str  # how users name it: "03" for 03_after_X.py; for MLIR the running position
    name: str  # the pass as users know it: "FlattenCallExpr", "canonicalize"; "frontend"/"input" for index 0
    filename: str  # display name, relative to the dump root
    content: str | None  # the text, or None to read it from `path` when asked (dumps reach GBs)
    warnings: str | None  # what the pass emitted as warnings / diagnostics, or None
    path: Path | None = None
    detail: str = ""  # shown beside the name: e.g. "Canonicalizer on func.func @matmul"
    failed: bool = False  # the pass reported failure: the pipeline stopped here
    base: int | None = None  # index of the earlier snapshot this one is diffed against; None: the one before it
    base_text: str | None = None  # an explicit text to diff against instead

    @property
    def text(self) -> str:
        """Decoded, without a BOM, newlines as in the file."""
        return self.content if self.content is not None else _read_text(self.path)

    @property
    def is_frontend(self) -> bool:
        return self.index == 0


@dataclass(frozen=True)
class Dump:
    title: str  # a display name: never an absolute path
    snapshots: tuple[Snapshot, ...]
    redirected: bool = False  # the user gave the compile output dir; we used its passes_dump/
    format: str = "pypto"  # the name of the format record that read it: "pypto", "mlir-tree", "mlir-stream"
    notes: tuple[str, ...] = ()  # what the user must be told (ambiguous order, overwritten files, scope)


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


def load_dump(path: str | os.PathLike[str]) -> Dump:
    root = Path(path)
    if not root.exists():
        raise DumpError(f"input directory does not exist: {root}")
    if not root.is_dir():
        raise DumpError(f"input is not a directory: {root}")
    redirected = False
    if not (root / "00_frontend.py").exists() and (root / "passes_dump").is_dir():
        root, redirected = root / "passes_dump", True
    names = _list_dir(root)
    entries = _snapshot_entries(root, names)
    snapshots = tuple(
        Snapshot(
            index=index,
            label=label,
            name=name,
            filename=filename,
            content=None,
            warnings=_read_warnings(root, filename, names),
            path=root / filename,
        )
        for index, label, name, filename in entries
    )
    return Dump(title=_title(root), snapshots=snapshots, redirected=redirected)


def _list_dir(root: Path) -> set[str]:
    try:
        return {entry.name for entry in os.scandir(root) if entry.is_file()}
    except OSError as err:
        raise DumpError(f"cannot read directory {root}: {err.strerror or err}") from None


def _snapshot_entries(root: Path, names: set[str]) -> list[tuple[int, str, str, str]]:
    by_index: dict[int, tuple[str, str, str]] = {}
    for filename in sorted(names):
        if not _NUMBERED.match(filename):
            continue
        match = _SNAPSHOT.match(filename)
        if match is None:
            raise DumpError(f"unexpected snapshot name {filename} in {root} (want 00_frontend.py or NN_after_<Pass>.py)")
        label = match["label"]
        index = int(label)
        if (index == 0) != bool(match["frontend"]):
            want = "00_frontend.py" if index == 0 else f"{label}_after_<Pass>.py"
            raise DumpError(f"unexpected snapshot name {filename} in {root} (want {want})")
        if index in by_index:
            raise DumpError(f"two snapshots with index {label} in {root}: {by_index[index][2]} and {filename}")
        by_index[index] = (label, match["name"] or "frontend", filename)
    if 0 not in by_index:
        raise DumpError(f"no 00_frontend.py in {root}: is this a passes_dump/ directory?")
    indices = sorted(by_index)
    for previous, current in zip(indices, indices[1:]):
        if current != previous + 1:
            missing = ", ".join(str(i).zfill(len(by_index[current][0])) for i in range(previous + 1, current))
            raise DumpError(
                f"snapshot index gap in {root}: missing {missing} between "
                f"{by_index[previous][2]} and {by_index[current][2]}"
            )
    return [(index, *by_index[index]) for index in indices]


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise DumpError(f"cannot read {path}: {err.strerror or err}") from None


def _read_text(path: Path) -> str:
    data = _read_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DumpError(f"{path} is not UTF-8 text (invalid byte 0x{data[err.start]:02x} at offset {err.start})") from None
    return text[1:] if text.startswith(_BOM) else text


def _read_warnings(root: Path, filename: str, names: set[str]) -> str | None:
    log_name = filename[:-3] + ".log"
    if log_name not in names:
        return None
    # Warnings are informative: a stray undecodable byte must not cost the user the report.
    text = _read_bytes(root / log_name).decode("utf-8", errors="replace")
    return text[1:] if text.startswith(_BOM) else text


def _title(root: Path) -> str:
    resolved = root.resolve()
    if resolved.name == "passes_dump" and resolved.parent.name:
        return f"{resolved.parent.name}/passes_dump"
    return resolved.name or "passes_dump"
