"""--mlir-print-ir-tree-dir trees: which files are dumps, and their order.

Tree order (the README's integer-tuple rule): a file's key interleaves its folders and counters,
((top folder, c1), (next folder, c2), ...), compared as tuples, so a prefix sorts first. The names
do not order sibling ops that ran after the same parent dump: siblings.py does (each op's dumps kept
together; with module scope the content decides, else the order the IR lists them). Equal keys (counters restarted: several pass managers wrote into one tree) are
ordered by file name, and an op folder whose own counter starts again holds another op; notes say so.
File mtimes are never used.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ...dump import Dump
from ...errors import DumpError
from . import siblings, snapshots
from .entries import Entry
from .headers import HEADER_PREFIX, Header, first_line, parse_header

_TREE_FILE = re.compile(r"^(?P<counters>\d+(?:_\d+)*)_(?P<arg>.+)\.mlir$")


def looks_like_tree(path: Path) -> bool:
    """A directory whose first <counters>_<pass>.mlir file (at any depth) starts with an IR Dump header."""
    if not path.is_dir():
        return False
    for file, regular in _mlir_files(path):
        if regular and _TREE_FILE.match(file.name):
            try:
                return first_line(file).startswith(HEADER_PREFIX)
            except DumpError:
                return False
    return False


def tree_depth(path: Path) -> int | None:
    """How many folders below `path` a dump tree's top lies, from its first tree file: 0 at the top, more
    above it (a directory holding trees), less inside it (an op's folder); None without a tree file."""
    if path.is_dir():
        for file, regular in _mlir_files(path):
            match = _TREE_FILE.match(file.name)
            if regular and match:
                return len(file.relative_to(path).parts) - 1 - len(match["counters"].split("_"))
    return None


def reads_path(given: Path, path: Path) -> bool:
    """Whether reading the tree given would read a file at path: a <counters>_<pass>.mlir at any depth in it."""
    inside = Path(os.path.realpath(path.parent))
    top = Path(os.path.realpath(given))
    return (inside == top or top in inside.parents) and _TREE_FILE.match(path.name) is not None


def tree_below(path: Path) -> bool:
    """Whether the tree's top lies in a folder below `path` (a directory holding trees looks like one)."""
    depth = tree_depth(path)
    return depth is not None and depth > 0


def read_tree(path: Path) -> Dump:
    root = Path(path)
    if not root.is_dir():
        raise DumpError(f"input is not a directory: {root}")
    notes: list[str] = []
    files, ignored = _tree_files(root)
    files = _align(root, files, notes)
    if ignored:
        notes.append(
            f"ignored {len(ignored)} .mlir entr(y/ies) that are not regular files named <counters>_<pass>.mlir, "
            f"e.g. {ignored[0]}"
        )
    files.sort(key=lambda e: (e.key, e.rel.name))
    files, sibling_note = siblings.order(files)
    notes.extend(_tree_order_notes(files))
    notes.extend(sibling_note)
    dumps, restarted = _entries(files)
    if restarted:
        notes.append(
            f"an op's counter starts again at {restarted[0]}"
            f"{f' (and {len(restarted) - 1} more)' if len(restarted) > 1 else ''}: "
            "another op with the same folder name (e.g. an unnamed op), or another run; it is taken as a new op, "
            "and files with the same name may have overwritten each other"
        )
    return snapshots.dump(root, dumps, notes, "mlir-tree")


@dataclass(frozen=True)
class TreeFile:
    rel: Path  # relative to the directory the user gave
    path: Path
    counters: tuple[int, ...]
    header: Header
    folders: tuple[str, ...]  # the op folders from the top-level op down: one per counter

    @property
    def key(self) -> tuple[tuple[str, int], ...]:
        """((folder, counter), ...): the README's integer-tuple order, with each op's dumps kept together."""
        return tuple(zip(self.folders, self.counters))

    @property
    def op_folder(self) -> str:
        return "/".join(self.folders)

    @property
    def ancestor_folders(self) -> tuple[str, ...]:
        return tuple("/".join(self.folders[:k]) for k in range(1, len(self.folders)))


def _tree_files(root: Path) -> tuple[list[TreeFile], list[str]]:
    """The dump files under root, and the .mlir entries that are not dumps (relative paths)."""
    files = []
    ignored = []
    for file, regular in _mlir_files(root):
        rel = file.relative_to(root)
        match = _TREE_FILE.match(rel.name)
        if match is None or not regular:
            ignored.append(rel.as_posix())
            continue
        header = parse_header(first_line(file))
        if header is None:
            raise DumpError(f"{rel.as_posix()} in {root} has no IR Dump header line: is this an MLIR dump tree?")
        counters = tuple(int(c) for c in match["counters"].split("_"))
        files.append(TreeFile(rel, file, counters, header, rel.parts[:-1]))
    if not files:
        raise DumpError(f"no MLIR dump files under {root}{_why_none(root, ignored)}")
    return files, ignored


def _entries(files: list[TreeFile]) -> tuple[list[Entry], list[str]]:
    """The ordered files as entries, each op named by its folder; and the files where an op's counter
    started again (another op in a folder of the same name: it gets a name of its own)."""
    dumps = []
    current: dict[str, str] = {}  # folder -> the op it holds now
    last_counter: dict[str, int] = {}
    restarted: list[str] = []
    for e in files:
        folder, own = e.op_folder, e.counters[-1]
        if folder in last_counter and own <= last_counter[folder]:
            # An op's counter only grows: this is another op with the same folder name, or another run.
            restarted.append(e.rel.as_posix())
            current[folder] = f"{folder}#{len(restarted) + 1}"
        last_counter[folder] = own
        op_id = current.setdefault(folder, folder)
        dumps.append(
            Entry(
                header=e.header,
                filename=e.rel.as_posix(),
                path=e.path,
                warnings=None,
                op_id=op_id,
                local=e.header.op is None and len(e.folders) > 1,
                ancestors=tuple(current.get(a, a) for a in e.ancestor_folders),
                where=e.folders[-1],
            )
        )
    return dumps, restarted


def _align(root: Path, entries: list[TreeFile], notes: list[str]) -> list[TreeFile]:
    """One folder per counter: a file k_j_x.mlir lies two op folders below the tree's top. The user may
    have given a folder above the tree (one level that only leads to it) or inside it (an op's folder)."""
    offsets = {len(e.rel.parts) - 1 - len(e.counters) for e in entries}
    if len(offsets) > 1:
        odd = next(e for e in entries if len(e.rel.parts) - 1 - len(e.counters) != min(offsets))
        raise DumpError(
            f"{odd.rel.as_posix()} in {root} does not lie one folder deep per counter: "
            "is this one --mlir-print-ir-tree-dir?"
        )
    offset = offsets.pop()
    if offset > 0:
        above = sorted({e.rel.parts[:offset] for e in entries})
        if len(above) > 1:
            shown = ", ".join("/".join(a) for a in above[:3])
            more = " ..." if len(above) > 3 else ""
            raise DumpError(f"{root} holds several dump trees ({shown}{more}): give one of them")
        notes.append(f"the dump tree is {'/'.join(above[0])} inside the given folder")
        return [replace(e, folders=e.rel.parts[offset:-1]) for e in entries]
    if offset < 0:
        outer = root.resolve().parts[offset:]
        if len(outer) < -offset:
            raise DumpError(f"{root}: its files have more counters than there are folders above them")
        notes.append(f"the given folder is inside a dump tree: its files are read as dumps of {'/'.join(outer)}")
        return [replace(e, folders=(*outer, *e.rel.parts[:-1])) for e in entries]
    return entries


def _why_none(root: Path, ignored: list[str]) -> str:
    """Why a tree may hold no dump: only an empty one is what the threading error leaves behind."""
    if ignored:
        return f" ({len(ignored)} .mlir file{'s' if len(ignored) > 1 else ''} not named <k>_<j>_<pass>.mlir, e.g. {ignored[0]})"
    if any(files for _, _, files in os.walk(root)):
        return " (no .mlir file in it)"
    return " (--mlir-print-ir-module-scope writes nothing without --mlir-disable-threading)"


def _mlir_files(root: Path):
    """Every .mlir entry under root, at any depth, in a fixed order (os.walk order is not fixed),
    with whether it is a regular file (a FIFO or device would block or never end when read)."""
    for folder, dirs, files in os.walk(root, onerror=_unlistable):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".mlir"):
                path = Path(folder) / name
                yield path, path.is_file()


def _unlistable(err: OSError) -> None:
    """A folder the walk cannot list would silently drop its op's passes from the report: fail, naming it."""
    raise DumpError(f"cannot list {err.filename}: {err.strerror or err}")


def _tree_order_notes(entries: list[TreeFile]) -> list[str]:
    """What the names cannot tell: equal counters, missing numbers, sibling ops' relative order."""
    notes = []
    by_key: dict[tuple, list[TreeFile]] = {}
    for e in entries:
        by_key.setdefault(e.key, []).append(e)
    clashes = [group for group in by_key.values() if len(group) > 1]
    if clashes:
        first = clashes[0]
        notes.append(
            f"counters restart in this tree ({len(clashes)} clash(es), e.g. "
            f"{' and '.join(e.rel.as_posix() for e in first[:2])}): several pass managers wrote into it; "
            "dumps with equal counters are ordered by file name, their true order is not known"
        )
        notes.append(
            "with restarted counters, a file with the same name overwrites an earlier one: dumps may be missing"
        )
    own: dict[str, set[int]] = {}
    for e in entries:
        own.setdefault(e.op_folder, set()).add(e.counters[-1])
    # An op's counter grows by one per dump, so a hole between its numbers is a lost dump. Numbers
    # before the first are not counted: an op renamed by a pass continues its counter in a new folder.
    gaps = [(folder, _missing(numbers)) for folder, numbers in sorted(own.items())]
    gaps = [(folder, missing) for folder, missing in gaps if missing[0]]
    if gaps:
        folder, (count, absent) = gaps[0]
        shown = ", ".join(map(str, absent)) + (" ..." if count > len(absent) else "")
        notes.append(
            f"dumps are missing in {len(gaps)} op folder(s), e.g. {folder}: numbers {shown} "
            "(overwritten by a file of the same name, or deleted)"
        )
    return notes


def _missing(numbers: set[int], shown: int = 5) -> tuple[int, list[int]]:
    """How many numbers between the smallest and the largest are absent, and the first few of them: in time
    and memory that follow how many numbers there are, never their size (a counter is a label)."""
    count, first = 0, list[int]()
    ordered = sorted(numbers)
    for low, high in itertools.pairwise(ordered):
        count += high - low - 1
        first.extend(range(low + 1, min(high, low + 1 + shown - len(first))))
    return count, first
