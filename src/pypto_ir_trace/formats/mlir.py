"""Discovery of MLIR pass dumps: --mlir-print-ir-tree-dir trees and --mlir-print-ir-after-all streams.

What a snapshot is, and what it is diffed against (Snapshot.base / base_text):
- Snapshot 0 is an empty text named "input": MLIR prints what passes produce, never the pipeline's
  input, and making the first dump snapshot 0 would hide the first pass. So the first dump shows
  whole, as added, and Dump.notes says why.
- Every dump is a snapshot, Before dumps (--mlir-print-ir-before-all) included, named by the pass
  argument ("canonicalize"). An After dump is diffed against the latest Before dump of the same op
  and pass that no After has answered yet: that is exactly what the pass did, whatever ran between.
- A whole dump (--mlir-print-ir-module-scope, or a dump of the top-level op) is diffed against the
  previous whole dump, with the local-scope dumps since put in place of their ops (the IR its pass
  received: else it would show what those passes changed as its own). A local-scope dump holds only
  its op: it is diffed against that op's previous dump, or, for the op's first dump, against the op's
  text cut out of the latest dump of an enclosing op (indentation removed), or against the empty
  input when there is none: never against the module.
Tree order (the README's integer-tuple rule): a file's key interleaves its folders and counters,
((top folder, c1), (next folder, c2), ...), compared as tuples, so a prefix sorts first. The names
do not order sibling ops that ran after the same parent dump: each op's dumps are kept together (a
nested pipeline runs to its end on one op before the next), ops in the order the IR lists them (the
order a pass manager visits them), read from one whole dump; folder names decide where the IR cannot
tell; a note says so. Equal keys (counters restarted: several pass managers wrote into one tree) are
ordered by file name, and an op folder whose own counter starts again holds another op; notes say so.
File mtimes are never used.
Stream: dumps in file order; diagnostics between dumps (`loc: error: ...` and the lines that follow
them) were emitted by the pass whose dump comes next, and become that snapshot's warnings.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from .. import structure
from ..dump import Dump, DumpError, Snapshot, read_text, snapshot_path, split_lines
from ..languages import MLIR
from ..languages import mlir as language

HEADER_PREFIX = "// -----// IR Dump "
_HEADER = re.compile(r"^// -----// IR Dump (?P<when>Before|After) (?P<body>.*?) //----- //[ \t]*$")
_OP_PART = re.compile(r" \('(?P<op>[^']+)' operation(?:: (?P<sym>@.+))?\)$")
# "Canonicalizer (canonicalize)" (LLVM 19, 22) and "CanonicalizerPass: canonicalize{opts}" (IREE); either
# may carry "Failed" after the class name.
_OLD_PASS = re.compile(r"^(?P<cls>\S+)(?P<failed> Failed)? \((?P<arg>[^()]*)\)$")
_NEW_PASS = re.compile(r"^(?P<cls>[^\s:]+)(?P<failed> Failed)?: (?P<arg>[^\s{]+)(?:\{.*\})?(?P<failed2> Failed)?$")
_TREE_FILE = re.compile(r"^(?P<counters>\d+(?:_\d+)*)_(?P<arg>.+)\.mlir$")
# A diagnostic starts at column 0 with its location: input.mlir:5:3, file.mlir:7, <unknown>:0.
_DIAGNOSTIC = re.compile(
    r"^(?P<file><unknown>|[^\s:\"]+?):(?P<line>\d+)(?::(?P<col>\d+))?: "
    r"(?P<severity>error|warning|note|remark): (?P<msg>.*)$"
)
_ALIAS = re.compile(r"^(?P<name>[#!][A-Za-z_][\w.$-]*) = ")  # an attribute or type alias definition
_THREADING = "without disabling multi-threading"
_THREADING_HELP = (
    "the compiler printed an error instead of IR: --mlir-print-ir-module-scope needs "
    "--mlir-disable-threading; add it and run again"
)
_HEADER_PROBE = 1 << 16  # bytes read to find the first header line of a file


@dataclass(frozen=True)
class Header:
    before: bool
    failed: bool
    cls: str  # the pass class: "Canonicalizer"
    arg: str  # the pass argument: "canonicalize"
    op: str | None  # "func.func" when the header names the op (module scope)
    sym: str | None  # "@matmul"


def parse_header(line: str) -> Header | None:
    match = _HEADER.match(line.rstrip("\r\n"))
    if match is None:
        return None
    body, op, sym = match["body"], None, None
    op_part = _OP_PART.search(body)
    if op_part is not None:
        body, op, sym = body[: op_part.start()], op_part["op"], op_part["sym"]
    named = _OLD_PASS.match(body) or _NEW_PASS.match(body)
    if named is None:  # an unknown layout: keep the text, it is still the pass as the compiler named it
        failed = body.endswith(" Failed")
        cls = body.removesuffix(" Failed")
        return Header(match["when"] == "Before", failed, cls, cls, op, sym)
    failed = bool(named["failed"] or named.groupdict().get("failed2"))
    return Header(match["when"] == "Before", failed, named["cls"], named["arg"] or named["cls"], op, sym)


def looks_like_tree(path: Path) -> bool:
    """A directory whose first <counters>_<pass>.mlir file (at any depth) starts with an IR Dump header."""
    if not path.is_dir():
        return False
    for file, regular in _mlir_files(path):
        if regular and _TREE_FILE.match(file.name):
            try:
                return _first_line(file).startswith(HEADER_PREFIX)
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


def looks_like_stream(path: Path) -> bool:
    """A file with an IR Dump header at a line start near its beginning, or the threading error."""
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEADER_PROBE).decode("utf-8", errors="replace")
    except OSError:
        return False
    return head.startswith(HEADER_PREFIX) or f"\n{HEADER_PREFIX}" in head or _THREADING in head


def read_tree(path: Path) -> Dump:
    root = Path(path)
    if not root.is_dir():
        raise DumpError(f"input is not a directory: {root}")
    notes: list[str] = []
    entries = []
    ignored = []
    for file, regular in _mlir_files(root):
        rel = file.relative_to(root)
        match = _TREE_FILE.match(rel.name)
        if match is None or not regular:
            ignored.append(rel.as_posix())
            continue
        header = parse_header(_first_line(file))
        if header is None:
            raise DumpError(f"{rel.as_posix()} in {root} has no IR Dump header line: is this an MLIR dump tree?")
        counters = tuple(int(c) for c in match["counters"].split("_"))
        entries.append(_TreeFile(rel, file, counters, header, rel.parts[:-1]))
    if not entries:
        raise DumpError(
            f"no MLIR dump files under {root} "
            "(--mlir-print-ir-module-scope writes nothing without --mlir-disable-threading)"
        )
    entries = _align(root, entries, notes)
    if ignored:
        notes.append(
            f"ignored {len(ignored)} .mlir entr(y/ies) that are not regular files named <counters>_<pass>.mlir, "
            f"e.g. {ignored[0]}"
        )
    entries.sort(key=lambda e: (e.key, e.rel.name))
    ranks, sibling_note = _sibling_ranks(entries)
    entries.sort(key=lambda e: (_ranked(e.key, ranks), e.rel.name))
    notes.extend(_tree_order_notes(entries))
    notes.extend(sibling_note)
    dumps = []
    current: dict[str, str] = {}  # folder -> the op it holds now
    last_counter: dict[str, int] = {}
    restarted: list[str] = []
    for e in entries:
        folder, own = e.op_folder, e.counters[-1]
        if folder in last_counter and own <= last_counter[folder]:
            # An op's counter only grows: this is another op with the same folder name, or another run.
            restarted.append(e.rel.as_posix())
            current[folder] = f"{folder}#{len(restarted) + 1}"
        last_counter[folder] = own
        op_id = current.setdefault(folder, folder)
        dumps.append(
            _Entry(
                header=e.header,
                filename=e.rel.as_posix(),
                path=e.path,
                content=None,
                warnings=None,
                op_id=op_id,
                local=e.header.op is None and len(e.folders) > 1,
                ancestors=tuple(current.get(a, a) for a in e.ancestor_folders),
                where=e.folders[-1],
            )
        )
    if restarted:
        notes.append(
            f"an op's counter starts again at {restarted[0]}"
            f"{f' (and {len(restarted) - 1} more)' if len(restarted) > 1 else ''}: "
            "another op with the same folder name (e.g. an unnamed op), or another run; it is taken as a new op, "
            "and files with the same name may have overwritten each other"
        )
    return _dump(root, dumps, notes, "mlir-tree")


def read_stream(path: Path) -> Dump:
    file = Path(path)
    if not file.is_file():
        raise DumpError(f"input is not a file: {file}")
    text = read_text(file)
    lines, _ = split_lines(text)
    starts = [i for i, line in enumerate(lines) if line.startswith(HEADER_PREFIX) and parse_header(line)]
    if not starts:
        if _THREADING in text:
            raise DumpError(f"{file}: {_THREADING_HELP}")
        raise DumpError(f"no IR Dump header line in {file}: is it the stderr of --mlir-print-ir-after-all?")
    notes: list[str] = []
    pending = _diagnostics(lines, 0, starts[0])
    dumps = []
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(lines)
        diag = _first_diagnostic(lines, start + 1, stop)
        content = "".join(line + "\n" for line in lines[start:diag])
        header = parse_header(lines[start])
        assert header is not None  # starts are the lines that parse as headers
        dumps.append(
            _Entry(
                header=header,
                filename=f"{file.name}:{start + 1}",
                path=None,
                content=content,
                warnings=pending,
                op_id=f"{header.op} {header.sym}" if header.op else "",
                local=False,
                ancestors=(),
                where="",
            )
        )
        pending = _diagnostics(lines, diag, stop)
    if pending:
        last = dumps[-1]
        dumps[-1] = replace(last, warnings=(last.warnings or "") + pending)
        notes.append("the stream ends with diagnostics after its last dump: they are shown with the last snapshot")
    dumps = [_as_local(entry) for entry in dumps]
    if any(entry.local for entry in dumps):
        notes.append(
            "headers do not name the op (no --mlir-print-ir-module-scope): a dump that holds one function is "
            "diffed against that function's previous dump, any other against the previous such dump"
        )
    return replace(_dump(file, dumps, notes, "mlir-stream"), files=(file,))


def anchors(warnings: str, filename: str) -> list[tuple[int, int, str]]:
    """(log line, 0-based snapshot line, message) for diagnostics that point into the snapshot's own file.

    mlir-opt locates diagnostics in the file it read (`input.mlir:5:3`), not in the dump, so only a
    location in a file of the snapshot's name (a dump fed back to the compiler) names a line of it.
    The header is the dump file's first line, so file line N is snapshot line N - 1.
    """
    own = filename.rsplit(":", 1)[0] if re.search(r":\d+$", filename) else filename
    base = own.rsplit("/", 1)[-1]
    found = []
    for index, line in enumerate(warnings.split("\n")):
        match = _DIAGNOSTIC.match(line)
        if match and match["file"].rsplit("/", 1)[-1] == base and int(match["line"]) >= 1:
            found.append((index, int(match["line"]) - 1, f"{match['severity']}: {match['msg']}"))
    return found


# --- trees -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _TreeFile:
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


def _align(root: Path, entries: list[_TreeFile], notes: list[str]) -> list[_TreeFile]:
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


def _mlir_files(root: Path):
    """Every .mlir entry under root, at any depth, in a fixed order (os.walk order is not fixed),
    with whether it is a regular file (a FIFO or device would block or never end when read)."""
    for folder, dirs, files in os.walk(root, onerror=None):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".mlir"):
                path = Path(folder) / name
                yield path, path.is_file()


def _first_line(file: Path) -> str:
    try:
        with file.open("rb") as handle:
            return handle.readline(_HEADER_PROBE).decode("utf-8", errors="replace").lstrip("\ufeff")
    except OSError as err:
        raise DumpError(f"cannot read {file}: {err.strerror or err}") from None


def _tree_order_notes(entries: list[_TreeFile]) -> list[str]:
    """What the names cannot tell: equal counters, missing numbers, sibling ops' relative order."""
    notes = []
    by_key: dict[tuple, list[_TreeFile]] = {}
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
    gaps = [(folder, sorted(set(range(min(n), max(n) + 1)) - n)) for folder, n in sorted(own.items())]
    gaps = [(folder, missing) for folder, missing in gaps if missing]
    if gaps:
        folder, missing = gaps[0]
        shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
        notes.append(
            f"dumps are missing in {len(gaps)} op folder(s), e.g. {folder}: numbers {shown} "
            "(overwritten by a file of the same name, or deleted)"
        )
    return notes


def _sibling_ranks(entries: list[_TreeFile]) -> tuple[dict[tuple, tuple], list[str]]:
    """Where the names cannot order sibling ops (the same parent dump), the IR can: a pass manager
    visits an op's children in the order the IR lists them, and runs a nested pipeline to the end on
    one before the next. So siblings are ranked by where their symbol stands in a whole dump among
    their own files (module scope); without one, or without a symbol, by folder name.
    -> ({(parent key, op folder): rank}, notes)."""
    regions_at = lru_cache(maxsize=None)(lambda path: _op_regions(read_text(path)))  # this tree only
    groups: dict[tuple, dict[str, _TreeFile]] = {}
    for e in entries:
        if len(e.key) > 1:
            groups.setdefault(e.key[:-1], {}).setdefault(e.key[-1][0], e)
    ranks: dict[tuple, tuple] = {}
    tops = [e for e in entries if len(e.folders) == 1]
    ambiguous = by_name = 0
    example = ""
    for parent, ops in groups.items():
        if len(ops) < 2:
            continue
        ambiguous += 1
        if not example:
            more = " ..." if len(ops) > 3 else ""
            example = f"{', '.join(list(ops)[:3])}{more} after {parent[-1][0]} dump {parent[-1][1]}"
        whole = next((f for f in ops.values() if f.header.op is not None), None)
        whole = whole or _top_dump_near(tops, parent, ops, regions_at)
        regions = regions_at(whole.path) if whole is not None else ()
        for folder, first in ops.items():
            region = _region_of(regions, first)
            if region is not None:
                ranks[(parent, folder)] = (0, region.start, folder)
        by_name += any((parent, folder) not in ranks for folder in ops)
    if not ambiguous:
        return ranks, []
    how = (
        "in the order the IR lists them (a pass that visits them otherwise, or in rounds with no module "
        "dump between, like the inliner running canonicalize, is not followed)"
    )
    if by_name:
        how += f"; in {by_name} case(s) the IR could not tell, and folder names decide"
    return ranks, [
        f"the file names do not record the order of sibling ops ({ambiguous} case(s), e.g. {example}): "
        f"each op's dumps are shown together, ops {how}"
    ]


def _top_dump_near(tops: list[_TreeFile], parent: tuple, ops: dict[str, _TreeFile], regions_at) -> _TreeFile | None:
    """A dump of the top-level op (it holds every op) from the same stretch of the pipeline: the
    nearest after the parent dump, then before it, alternating; the first that shows all these ops,
    else the one that shows most (passes remove functions; the order of the rest does not change)."""
    after = [e for e in tops if e.key >= parent][:2]
    before = [e for e in tops if e.key < parent][-2:][::-1]
    best, found = None, 0
    for top in [t for pair in zip(after + [None] * 2, before + [None] * 2) for t in pair if t is not None]:
        regions = regions_at(top.path)
        count = sum(_region_of(regions, first) is not None for first in ops.values())
        if count > found:
            best, found = top, count
        if found == len(ops):
            break
    return best


def _region_of(regions, file: _TreeFile):
    """The region of the op a file dumps: by the symbol in its header, else by its folder name
    (`<op>_<symbol>`: the longest symbol that ends the folder name)."""
    sym = file.header.sym
    if sym:
        return _locate(regions, sym, file.op_folder) or _locate(regions, sym.removeprefix("@"), file.op_folder)
    folder = file.folders[-1]
    names = {r.key.rsplit("::", 1)[-1] for r in regions}
    fitting = sorted((n for n in names if folder.endswith("_" + n.removeprefix("@"))), key=len, reverse=True)
    return _locate(regions, fitting[0], file.op_folder) if fitting else None


def _ranked(key: tuple[tuple[str, int], ...], ranks: dict[tuple, tuple]) -> tuple:
    return tuple((ranks.get((key[:i], folder), (1, 0, folder)), counter) for i, (folder, counter) in enumerate(key))


def _named(regions, name: str) -> list:
    """The regions whose key ends in `name` (the op's own name, whatever modules enclose it)."""
    return [r for r in regions if r.key == name or r.key.endswith(f"::{name}")]


def _locate(regions, name: str, folder_path: str):
    """The one region named `name` (last key component); the folders break ties between modules."""
    found = _named(regions, name)
    if len(found) > 1:
        found = [r for r in found if all(f"_{m}" in folder_path for m in r.key.split("::")[:-1])]
    return found[0] if len(found) == 1 else None


# --- streams -----------------------------------------------------------------------------------


def _first_diagnostic(lines: list[str], start: int, stop: int) -> int:
    for i in range(start, stop):
        if _DIAGNOSTIC.match(lines[i]):
            return i
    return stop


def _diagnostics(lines: list[str], start: int, stop: int) -> str | None:
    text = "".join(line + "\n" for line in lines[start:stop]).strip("\n")
    return text + "\n" if text.strip() else None


def _as_local(entry: _Entry) -> _Entry:
    """A stream dump whose header names no op: local when it holds one function and nothing else.

    A named module alone is not enough: it may be the top-level module, which is a whole dump."""
    if entry.header.op is not None:
        return entry
    key = _single_op(entry.content or "")
    if key is None or not key.startswith("@"):
        return entry
    return replace(entry, op_id=key, local=True)


# --- both --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    header: Header
    filename: str
    path: Path | None
    content: str | None
    warnings: str | None
    op_id: str  # whose dump it is: a tree's op folder, a stream's "op @sym", a function key
    local: bool  # holds only its op (no module scope)
    ancestors: tuple[str, ...]  # op_ids of the enclosing ops, outermost first
    where: str  # the op folder's name, for the detail of a local dump

    def text(self) -> str:
        return self.content if self.content is not None else read_text(snapshot_path(self.path))


def _dump(source: Path, entries: list[_Entry], notes: list[str], format_name: str) -> Dump:
    notes.insert(
        0, "MLIR dumps hold no copy of the pipeline's input: snapshot 0 is empty, so the first dump shows as added"
    )
    bases, uncut, unspliced, unseen, shared = _bases(entries)
    if any(e.local for e in entries):
        notes.append(
            "local-scope dumps (no --mlir-print-ir-module-scope) hold only their op: each is diffed against that "
            "op's previous dump, its first dump against the op cut out of the last dump of an enclosing op; "
            "a dump of the whole IR after local ones is diffed against the previous whole dump with those "
            "local dumps put in place of their ops"
        )
    if unspliced:
        notes.append(
            f"{unspliced} dump(s) of the whole IR follow a local dump whose op was not found in the previous "
            "whole dump: they are diffed against that whole dump, so they also show what the local passes changed"
        )
    if unseen:
        notes.append(
            f"the first dump of the whole IR ({unseen}) comes after local dumps only: the IR its pass received was "
            "never printed whole, so it is shown against the empty input and its counts are the whole IR's"
        )
    if shared:
        notes.append(
            f"local-scope dumps of {', '.join(shared)} cannot be told apart: several modules define that name and "
            "the dump says no more (a tree's folders would), so each is diffed against the previous dump of that "
            "name, whichever module it came from"
        )
    if uncut:
        notes.append(
            f"{len(uncut)} local-scope op(s) had no enclosing dump to cut their text from (e.g. {uncut[0]}): "
            "their first dump is shown against the empty input"
        )
    snapshots = [Snapshot(0, "0", "input", "(input not dumped)", "", None, detail="the pipeline's input is not dumped")]
    for index, (entry, (base, base_text, base_name)) in enumerate(zip(entries, bases), start=1):
        snapshots.append(
            Snapshot(
                index=index,
                label=str(index),
                name=entry.header.arg,
                filename=entry.filename,
                content=entry.content,
                warnings=entry.warnings,
                path=entry.path,
                detail=_detail(entry),
                failed=entry.header.failed,
                base=None if base == index - 1 and base_text is None else base,
                base_text=base_text,
                base_name=base_name,
                header_lines=1,
            )
        )
    return Dump(title=_title(source), snapshots=tuple(snapshots), format=format_name, notes=tuple(notes))


def _bases(entries: list[_Entry]) -> tuple[list[tuple[int | None, str | None, str]], list[str], int, str, list[str]]:
    """(base index, base text, what that text is) for each entry, snapshot indices counting the empty input as 0; the local
    dumps that had nothing to cut their op from; how many whole dumps could not be given the local dumps
    before them (diffed against the previous whole dump, so they also show what those passes changed);
    the first whole dump when local dumps came before it ("21 finalize-memref-to-llvm"), else ""; the ops
    whose local dumps cannot be told apart (a name several modules define, in a stream that says no more)."""
    last_of: dict[str, int] = {}
    open_before: dict[tuple[str, str], int] = {}
    last_whole = 0
    # The last whole dump with every local dump since put in place of its op (header line kept, as the
    # dumps have it), and its op regions: what a whole dump's pass received. None: no local dump since, or one
    # could not be put in.
    current: tuple[str, tuple] | None = None
    lost = False  # a local dump since the last whole dump could not be put in
    unspliced = 0
    unseen = ""
    bases: list[tuple[int | None, str | None, str]] = []
    spliced = 0  # local dumps put in the last whole dump
    uncut: list[str] = []
    shared: list[str] = []
    for index, entry in enumerate(entries, start=1):
        step = (entry.op_id, entry.header.arg)
        base, text, name = None, None, ""
        if not entry.header.before and step in open_before:
            base = open_before.pop(step)
        elif not entry.local:
            if current is not None and not lost:
                text = current[0].split("\n", 1)[1]
                name = f"{entries[last_whole - 1].filename} with the {spliced} local dump(s) after it put in"
            else:
                base = last_whole
                unspliced += lost
                if not last_whole and last_of:  # only local dumps so far: nothing to put them in
                    unseen = f"{index} {entry.header.arg}"
        else:
            # The op as it stands now: its own last dump, unless a dump of an enclosing op came after it
            # (a module pass changes functions too): then the op cut out of that one.
            own = last_of.get(entry.op_id)
            enclosing = [last_of[a] for a in entry.ancestors if a in last_of]
            if last_whole:
                enclosing.append(last_whole)
            if enclosing and (own is None or max(enclosing) > own):
                source = entries[max(enclosing) - 1]
                source_text = source.text()
                text = _cut(source_text, entry)
                name = f"{entry.where or entry.op_id} cut out of {source.filename}" if text is not None else ""
                if text is None and entry.op_id not in shared and _defined_more_than_once(source_text, entry):
                    shared.append(entry.op_id)
            if text is None:
                base = own if own is not None else 0
                if own is None:
                    uncut.append(entry.filename)
        if entry.header.before:
            open_before[step] = index
        last_of[entry.op_id] = index
        if not entry.local:
            last_whole, current, lost, spliced = index, None, False, 0
        elif last_whole and not lost:
            if current is None:
                whole = entries[last_whole - 1].text()
                current = whole, _op_regions(whole)
            current = _splice(*current, entry)
            lost, spliced = current is None, spliced + 1
        bases.append((base, text, name))
    return bases, uncut, unspliced, unseen, shared


def _defined_more_than_once(source_text: str, entry: _Entry) -> bool:
    """Whether several ops of an enclosing dump carry the local entry's name and its folder cannot choose:
    a stream's local dump names only `@f`, and `module @a` and `module @b` may both define one."""
    key = _op_key(entry)
    if key is None:
        return False
    name = key.rsplit("::", 1)[-1]
    found = _named(_op_regions(source_text), name)
    return len(found) > 1 and _locate(found, name, entry.op_id) is None


def _op_key(entry: _Entry) -> str | None:
    """The key of the op a local entry dumps: a stream's is its op_id, a tree's is read from its file."""
    return _single_op(entry.text()) if entry.content is None else entry.op_id


def _region_in(source_text: str, entry: _Entry, regions: tuple | None = None):
    """Where the local entry's op stands in an enclosing dump's text (its op regions, if known), or None."""
    key = _op_key(entry)
    if key is None:
        return None
    name = key.rsplit("::", 1)[-1]
    region = _locate(_op_regions(source_text) if regions is None else regions, name, entry.op_id)
    if region is None or (entry.where and not entry.where.endswith(f"_{name.removeprefix('@')}")):
        return None
    return region


def _cut(source_text: str, entry: _Entry) -> str | None:
    """The entry's op as it stands in an enclosing dump, dedented: the text its first local dump is
    diffed against (without a header line: a snapshot's text has none)."""
    region = _region_in(source_text, entry)
    if region is None:
        return None
    lines, _ = split_lines(source_text)
    indent = len(lines[region.def_line]) - len(lines[region.def_line].lstrip(" "))
    body = [
        line[indent:] if not line[:indent].strip() else line.lstrip(" ") for line in lines[region.start : region.end]
    ]
    return _without_aliases("".join(line + "\n" for line in body) + "\n", lines)


def _without_aliases(text: str, lines: list[str]) -> str:
    """The text with the aliases the dump `lines` defines (`#map = affine_map<...>` before its top op)
    written out: a local-scope dump prints every attribute and type in full."""
    aliases = {}
    for line in lines[1:]:
        match = _ALIAS.match(line)
        if match is None:
            break
        aliases[match["name"]] = line[match.end() :]
    if not aliases:
        return text
    used = re.compile("|".join(re.escape(name) for name in sorted(aliases, key=len, reverse=True)) + r"(?![\w.$-])")
    for _ in range(len(aliases)):  # an alias may be defined with another
        text, count = used.subn(lambda m: aliases[m.group()], text)
        if not count:
            break
    return text


def _splice(whole: str, regions: tuple, entry: _Entry) -> tuple[str, tuple] | None:
    """The whole dump's text (header line first, its op regions given) with the local entry's op replaced by
    the entry's text, indented to where the op stands, and the new text's regions; None when the op cannot
    be found in it."""
    region = _region_in(whole, entry, regions)
    if region is None:
        return None
    lines, _ = split_lines(whole)
    indent = lines[region.def_line][: len(lines[region.def_line]) - len(lines[region.def_line].lstrip(" "))]
    own = split_lines(entry.text())[0][1:]  # after its header line
    while own and not own[-1].strip():  # a dump ends with a blank line
        own.pop()
    body = [indent + line if line else line for line in own]
    spliced = [*lines[: region.start], *body, *lines[region.end :]]
    kept = _used_aliases(spliced)
    text = "".join(line + "\n" for line in kept)
    moved = _moved(regions, region, _op_regions(entry.text()), len(body), len(spliced) - len(kept))
    return text, moved if moved is not None else _op_regions(text)


def _moved(regions: tuple, region, own: tuple, length: int, dropped: int) -> tuple | None:
    """The regions after `region` was replaced by `length` lines (its local dump's regions `own`, header at row
    0) and `dropped` alias lines above every op went: found without parsing the text again (a big module,
    spliced once per local dump). None when the op holds other regions or its dump names it otherwise."""
    if (
        len(own) != 1
        or own[0].end - own[0].start != length
        or own[0].key.rsplit("::", 1)[-1] != region.key.rsplit("::", 1)[-1]
    ):
        return None
    delta = length - (region.end - region.start)
    moved = []
    for r in regions:
        if r == region:
            r = replace(r, end=r.start + length, def_line=r.start + own[0].def_line - own[0].start)
        elif r.start >= region.end:
            r = replace(r, start=r.start + delta, end=r.end + delta, def_line=r.def_line + delta)
        elif r.start <= region.start and region.end <= r.end:
            r = replace(r, end=r.end + delta)
        elif r.end > region.start:  # inside the op: its dump decides what is there now
            return None
        moved.append(replace(r, start=r.start - dropped, end=r.end - dropped, def_line=r.def_line - dropped))
    return tuple(moved)


def _used_aliases(lines: list[str]) -> list[str]:
    """The lines without the alias definitions (`#map = ...` before the top op) that nothing uses any more:
    MLIR prints only the aliases the IR uses, and a local dump prints none (its attributes in full)."""
    definitions = []
    for row in range(1, len(lines)):
        match = _ALIAS.match(lines[row])
        if match is None:
            break
        definitions.append((row, match["name"]))
    text = "\n".join(lines)
    unused = {row for row, name in definitions if len(re.findall(re.escape(name) + r"(?![\w.$-])", text)) < 2}
    return [line for row, line in enumerate(lines) if row not in unused]


@lru_cache(maxsize=16)
def _op_regions(text: str) -> tuple:
    return tuple(language.op_regions(structure.parse(split_lines(text)[0], MLIR)))


def _single_op(text: str) -> str | None:
    """The key of the one op (a function or a named module) a local dump holds after its header, or None."""
    lines, _ = split_lines(text)
    regions = _op_regions(text)
    if not regions:
        return None
    outer = regions[0]  # sorted by start, the widest first
    outside = lines[1 : outer.start] + lines[outer.end :]
    return outer.key if not any(line.strip() for line in outside) else None


def _detail(entry: _Entry) -> str:
    header = entry.header
    if header.op:
        detail = f"{header.cls} on {header.op}" + (f" {header.sym}" if header.sym else "")
    elif entry.where:
        detail = f"{header.cls} on {entry.where}"
    elif entry.local:
        detail = f"{header.cls} on {entry.op_id}"
    else:
        detail = header.cls
    extras = [
        *(["Before"] if header.before else []),
        *(["failed"] if header.failed else []),
        *(["local scope"] if entry.local else []),
    ]
    return ", ".join([detail, *extras])


def _title(source: Path) -> str:
    resolved = source.resolve()
    return f"{resolved.parent.name}/{resolved.name}" if resolved.parent.name else resolved.name or str(source)
