"""LLVM pass dump streams (`-print-after-all` and its family, stderr saved to a file): cut into dumps at their
header lines (headers.py), each dump a pass, and what each is diffed against (the splice, program.py).

- Every header that prints IR is a snapshot; one that says the pass changed nothing (`-print-changed`'s
  "omitted because no change", "ignored") is a no-op snapshot showing the text before it. `-print-changed`'s
  "filtered out" lines (passes on functions `-filter-print-funcs` leaves out) are counted in a note, not listed.
- Snapshot 0 is the pipeline's input: `-print-changed`'s "IR Dump At Start", or the module printed before the first
  pass (`-print-before-all`), else empty (LLVM prints what passes produce, not what the first one received), so
  the first dump shows as added.
- A dump is the whole program when it prints a module (`; ModuleID = ...`: a module pass, `-print-module-scope`,
  a unit the pass invalidated); a loop's fragment when its header names a loop and it prints no function; else
  the functions it prints (one, an SCC's, or those `-filter-print-funcs` keeps of a module).
- The compiler's diagnostics after a dump's IR (`-Rpass` remarks, warnings, with the source lines under them) were
  printed by the pass whose dump comes next: they are that snapshot's warnings, not IR; those after the last dump
  go with it.
- A loop's dumps follow each other pass by pass (the loop pass manager runs its passes on one loop, then on the
  next): a fragment is the next loop's first when its pass is the one its loop's run began with.
"""

from __future__ import annotations

import itertools
import os
import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from ... import printed_before, splice
from ...dump import (
    REPORT_MARKERS,
    REPORT_START,
    WHOLE,
    Dump,
    Part,
    Snapshot,
    Stretch,
    between_dumps,
    blocks,
    lines_holding,
    packed,
    told_apart,
)
from ...errors import DumpError
from . import DIAGNOSTIC, INPUT_NAME, LOG_STARTS, metadata, program
from .headers import PREFIXES, Header, parse_header
from .program import GRAMMAR

_PROBE = 1 << 16  # bytes read to detect a stream
_CHUNK = 1 << 23
_MARK = b"*** IR "


class Module(NamedTuple):
    """What tells one compilation's modules from another's: the ID (`; ModuleID = 'k.cu'`) and the target triple
    (CUDA compiles `k.cu` twice, for the host and the device)."""

    name: str
    triple: str


@dataclass(frozen=True)
class _Entry:
    header: Header
    row: int  # the header's line in the file, 0-based
    stretch: Stretch  # the text after the header line, to the next header or the diagnostics before it
    warnings: str | None = None  # the diagnostics printed before the header: its pass's (a remark, a warning)
    module: Module | None = None  # the module the dump prints, None when it prints none


def looks_like(path: Path) -> bool:
    """A file with an LLVM IR Dump header at a line start near its beginning."""
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(_PROBE)
    except OSError:
        return False
    return any(_header_at(head, at) is not None for at in _line_starts_with_mark(head))


def read(path: Path, part: Part = WHOLE) -> tuple[Dump, ...]:
    """The stream's pipelines (or those of the part of it LLVM printed): one per compilation (clang given several
    sources, or several runs' output in one file), each starting where a dump prints another module than the dumps
    before."""
    file = Path(path)
    if not file.is_file():
        raise DumpError(f"input is not a file: {file}")
    entries, trailing, logged, reported, cut_in = _scan(file, part)
    if cut_in:
        raise DumpError(
            f"{file}: {cut_in} IR Dump header(s) start inside a line: the output of several threads is interleaved "
            "(rustc's parallel codegen units, a parallel LTO backend), so no dump can be read whole: run it again "
            "on one thread (rustc: -C codegen-units=1)"
        )
    if not entries:
        raise DumpError(f"no LLVM IR Dump header line in {file}: is it the stderr of -print-after-all?")
    if _prints_diffs(entries):
        raise DumpError(
            f"{file} holds diffs, not IR (-print-changed=diff, cdiff or diff-quiet): run again with -print-changed "
            "or -print-after-all"
        )
    notes: list[str] = []
    if logged:
        notes.append(
            f"{logged} line(s) of the pass manager's log (-debug-pass-manager) between dumps: not IR, left out"
        )
    if reported:
        notes.append(f"{reported} line(s) of the compiler's reports (-ftime-report, -stats): not IR, left out")
    filtered = sum(entry.header.outcome == "filtered" for entry in entries)
    if filtered:
        notes.append(f"{filtered} pass(es) ran on functions -filter-print-funcs leaves out: not listed")
    entries = _dropped(entries, lambda entry: entry.header.outcome == "filtered")
    found = _compilations(entries)
    if len(found) == 1:
        return (_pipeline(file, entries, notes, trailing),)
    said = (
        f"{len(found)} compilations in one stream (clang given several sources, or several runs' output), each its "
        "own pipeline: one starts where a dump prints another module (its ModuleID or target triple) than the dumps "
        "before"
    )
    names = _names([_module_of(part) for part in found])
    return tuple(
        replace(_pipeline(file, part, [said, *notes], trailing and k == len(found) - 1), name=name)
        for k, (part, name) in enumerate(zip(found, names))
    )


def _compilations(entries: list[_Entry]) -> list[list[_Entry]]:
    """The dumps cut into compilations. A pass never renames its module, so a dump that prints another module
    than the last one printed is another compilation's; it began after the last dump of the module before, at
    the dump that best parts the functions of the two (_first_of_next). With only function passes printed, no
    dump names the module, and the compilations stay one pipeline."""
    starts = [0]
    module, printed_at = None, 0  # the module the compilation prints, and its last dump that did
    for k, entry in enumerate(entries):
        if entry.module is None:
            continue
        if module is not None and entry.module != module:
            starts.append(_first_of_next(entries, printed_at, k))
        module, printed_at = entry.module, k
    return [entries[a:b] for a, b in itertools.pairwise([*starts, len(entries)])]


def _first_of_next(entries: list[_Entry], old: int, new: int) -> int:
    """Where the compilation whose first module dump is `new` began, after `old`, the last module dump of the one
    before: the cut between them that leaves the fewest dumps on the wrong side, a dump's side being the module
    that defines the functions it prints (when only one of the two does); at the earliest such cut, as the
    functions neither defines are mostly the next one's, gone (inlined) before it printed its module."""
    if entries[new].header.start:  # -print-changed's "At Start": the compilation's input, before any of its passes
        return new
    mine, theirs = _defined(entries[old]), _defined(entries[new])
    sides = []
    for entry in entries[old + 1 : new]:
        names = _functions(entry)
        sides.append((bool(names & mine - theirs), bool(names & theirs - mine)))
    wrong = best = sum(before for before, _ in sides)  # the cut right after `old`: every earlier dump's is wrong
    cut = old + 1
    for at, (before, after) in enumerate(sides, start=old + 2):
        wrong += after - before
        if wrong < best:
            best, cut = wrong, at
    return cut


def _defined(entry: _Entry) -> set[str]:
    return {key for key, _, _ in program.units(entry.stretch.read())}


def _functions(entry: _Entry) -> set[str]:
    """The functions a dump is on: its loop's function; those its header names when it prints nothing
    (-print-changed's "omitted because no change"); else those it prints, machine functions by their IR's names."""
    header = entry.header
    if header.loop and header.function:
        return {header.function}
    if not header.prints:
        return set() if header.unit in ("", "[module]") else set(header.unit.strip("()").split(", "))
    return {key.removeprefix("machine function ") for key, _, _ in program.units(entry.stretch.read())}


def _module_of(part: list[_Entry]) -> Module:
    return next(entry.module for entry in part if entry.module is not None)


def _names(modules: list[Module]) -> list[str]:
    """Each compilation's name: its module's ID; with its target where the ID repeats (`k.cu (nvptx64-nvidia-
    cuda)`), and its place where that repeats too (`lz4.c (x86_64-pc-linux-gnu) (2)`)."""
    names = [m.name for m in modules]
    return told_apart([f"{m.name} ({m.triple})" if names.count(m.name) > 1 and m.triple else m.name for m in modules])


def _pipeline(file: Path, entries: list[_Entry], notes: list[str], trailing: bool) -> Dump:
    """One compilation's dumps as a pipeline: its input (dumped, or empty), then a snapshot per dump."""
    notes = list(notes)
    start = entries[0] if _is_input(entries[0]) else None
    if start is not None:
        entries = _dropped(entries, lambda entry: entry is start)
        input_snapshot = Snapshot(0, "0", "input", f"{file.name}:{start.row + 1}", None, None, source=start.stretch)
        if start.header.before:
            notes.append(
                f"the pipeline's input (snapshot 0) is the module printed before its first pass, {start.header.name}"
            )
    else:
        notes.append(
            "LLVM prints no copy of the pipeline's input: snapshot 0 is empty, so the first dump shows as added"
        )
        input_snapshot = Snapshot(0, "0", INPUT_NAME, INPUT_NAME, "", None, detail="the pipeline's input is not dumped")
    if trailing:
        notes.append("the stream ends with diagnostics after its last dump: they are shown with the last snapshot")
    snapshots = [input_snapshot, *_snapshots(file, entries, start, notes, input_snapshot)]
    first = printed_before.Pass.printed(start.header.name, _detail(start.header), start.header.full) if start else None
    snapshots, said = printed_before.charged(snapshots, first)
    notes.extend([said] if said else [])
    return Dump(title=_title(file), snapshots=tuple(snapshots), format="llvm", notes=tuple(notes), files=(file,))


def _snapshots(file: Path, entries: list[_Entry], start: _Entry | None, notes: list[str], first: Snapshot):
    """The snapshots of the dumps, each with its base from the splice (the input, when dumped, is a whole dump)."""
    printing = [k for k, entry in enumerate(entries) if entry.header.prints]
    index_of = ([0] if start else []) + [k + 1 for k in printing]  # printed position -> snapshot index

    def describe(at: int) -> str:
        index = index_of[at]
        return f"{index} {entries[index - 1].header.name}" if index else "0 input"

    modules: set[int] = set()  # the entries whose dump prints the module

    def printed():  # one at a time: each dump's text is read once and let go
        if start is not None:  # a Before dump answered by its After: that is diffed against it, as any
            yield splice.Printed(splice.WHOLE, start.stretch.read, step=_step(start.header), before=start.header.before)
        for k in printing:
            found = _printed(entries, k)
            if found.kind == splice.WHOLE:
                modules.add(k)
            yield found

    found = splice.bases(printed(), GRAMMAR, splice.names(describe))
    notes.extend(_splice_notes(found))
    base_of = dict(zip(index_of, zip(found.bases, packed([base.text for base in found.bases]))))
    made: list[Snapshot] = []
    for k, entry in enumerate(entries):
        index = k + 1
        header = entry.header
        common = dict(
            index=index,
            label=str(index),
            name=header.name,
            filename=f"{file.name}:{entry.row + 1}",
            warnings=entry.warnings,
            detail=_detail(header),
            printed_before=header.before,
            header=header.full,
        )
        if not header.prints:  # the pass changed nothing: the text before it, again
            before = made[-1] if made else first
            made.append(
                Snapshot(
                    content=before.content,
                    path=None,
                    source=before.source,
                    **common,  # type: ignore[arg-type]
                )
            )
            continue
        base, based_on = base_of[index]
        if start is not None and base.dump == splice.INPUT:  # a unit no dump held: nothing, not the dumped input
            base, based_on = splice.Base(None, "", splice.NOTHING), packed([""])[0]
        if base.dump is not None:  # the dump it is diffed against, as this dump's print numbers metadata
            other = 0 if base.dump == splice.INPUT else index_of[base.dump]
            numbered = _numbered_here(entries, start, other, k, modules)
            if numbered is not None:
                name = f"{other} {entries[other - 1].header.name if other else 'input'}, its metadata numbered as here"
                base, based_on = splice.Base(None, numbered, name), packed([numbered])[0]
        made.append(
            Snapshot(
                content=None,
                path=None,
                source=entry.stretch,
                base=None if base.dump is None else _index(base.dump, index_of, index),
                based_on=based_on,
                base_name=base.name,
                **common,  # type: ignore[arg-type]
            )
        )
    return made


def _numbered_here(entries: list[_Entry], start: _Entry | None, index: int, k: int, modules: set[int]) -> str | None:
    """The text of snapshot `index`, the base of dump `k`, with its metadata numbered as that dump's print numbers
    it, when LLVM printed it for another unit (a module pass's dump before a function pass's: each print numbers
    metadata afresh, metadata.py), or either prints the module (a module pass, `-print-module-scope`), whose print
    numbers every node it holds: one that comes or goes anywhere moves the numbers of the rest, also between two
    dumps of one function; or when both print the same function or SCC alone but name other numbers (attribute
    groups are numbered over the module: a pass that gave another function new attributes moves them). None for
    the empty input, or when nothing is named otherwise. A legacy pass manager's header names no unit (`llc`):
    any two of its dumps may differ. `modules`: the entries whose dump prints the module."""
    other = start if index == 0 else entries[index - 1]
    if other is None:
        return None
    entry = entries[k]
    unit = entry.header.unit
    text, here = other.stretch.read(), entry.stretch.read()
    alone = unit and unit != "[module]" and other.header.unit == unit and not {k, index - 1} & modules
    if alone and metadata.numbered_alike(text, here):
        return None
    numbered = program.numbered(text, here)
    return None if numbered is text else numbered


def _index(at: int, index_of: list[int], index: int) -> int | None:
    """The snapshot a base names; None when that is the one before (the default)."""
    base = 0 if at == splice.INPUT else index_of[at]
    return None if base == index - 1 else base


_DIFF_LINE = re.compile(r"^(?:[-+]|\x1b\[)", re.M)  # IR never starts a line so: -print-changed=diff's lines do


def _prints_diffs(entries: list[_Entry]) -> bool:
    """Whether the dumps are `-print-changed=diff` output (each changed unit printed as a diff against its text
    before, `+` and `-` lines, coloured by cdiff): a pass dump after the input that has such a line."""
    printed = (entry for entry in entries if entry.header.prints and not entry.header.start)
    return any(_DIFF_LINE.search(entry.stretch.read()) for entry in itertools.islice(printed, 3))


def _is_input(entry: _Entry) -> bool:
    """Whether the stream's first dump is the pipeline's input: `-print-changed`'s "IR Dump At Start", or a module
    printed before the first pass (`-print-before-all`)."""
    return entry.header.start or (entry.header.before and _prints_a_module(entry.stretch.read()))


def _step(header: Header) -> tuple[str, str]:
    """What pairs a Before dump with its After dump: the pass and its unit."""
    return header.cls, header.unit


def _printed(entries: list[_Entry], k: int) -> splice.Printed:
    header = entries[k].header
    read = entries[k].stretch.read()
    text = lambda: read  # read once: the splice asks again
    step = _step(header)
    if header.loop and not _prints_a_function(read):
        return splice.Printed(
            splice.FRAGMENT,
            text,
            unit=header.function,
            fresh=_starts_a_loop(entries, k, read),
            step=step,
            before=header.before,
        )
    kind = splice.WHOLE if _prints_a_module(read) else splice.UNITS
    return splice.Printed(kind, text, step=step, before=header.before)


def _prints_a_module(text: str) -> bool:
    return text.lstrip("\n").startswith("; ModuleID = ")


def _prints_a_function(text: str) -> bool:
    return text.startswith("define ") or "\ndefine " in text or _prints_a_module(text)


def _starts_a_loop(entries: list[_Entry], k: int, text: str) -> bool:
    """Whether loop dump k (`text`) is the first of another loop: the dump before it is no loop dump of the same
    function, or runs the pass that began the run of loop dumps k belongs to (the loop pass manager starts again)
    and prints another header block: a pipeline runs some passes twice on a loop (LICM), and with -print-after
    naming a few passes, the first printed may be one of those."""
    header = entries[k].header
    first = None
    for at in range(k - 1, -1, -1):
        other = entries[at].header
        if not other.loop or other.function != header.function:
            break
        first = at
    if first is None:
        return True
    run = [entries[at].header for at in range(first, k)]
    start = 0
    for at, other in enumerate(run):  # the run restarts at each dump of its first pass
        if at and (other.name, other.before) == (run[start].name, run[start].before):
            start = at
    if (header.name, header.before) != (run[start].name, run[start].before):
        return False
    label = program.loop_header(text)
    return label is None or label != program.loop_header(entries[k - 1].stretch.read())


def _splice_notes(found: splice.Found) -> list[str]:
    notes = [
        "a dump of one function (or a call-graph SCC) is diffed against those functions as they stood before its "
        "pass, a loop's dump against that loop's previous dump (its first against its blocks cut out of the "
        "function), a module dump against the previous module dump with the function and loop dumps since put in"
    ]
    if found.unseen:
        notes.append(
            f"{len(found.unseen)} dump(s) print functions or loops no earlier dump printed: shown against the empty input"
        )
    if found.uncut:
        notes.append(
            f"{found.uncut} loop dump(s) name blocks their function's text does not have: shown against the empty input"
        )
    if found.lost:
        notes.append(
            f"{found.lost} loop dump(s) could not be put into their function: its next dump also shows what they changed"
        )
    return notes


def _detail(header: Header) -> str:
    where = f" on {header.unit}" if header.unit else ""
    extras = [
        *([printed_before.BEFORE] if header.before else []),
        *(["machine code"] if header.machine else []),
        *({"unchanged": ["omitted because no change"], "ignored": ["ignored"]}.get(header.outcome, [])),
        *(["invalidated: the module is printed"] if header.outcome == "invalidated" else []),
    ]
    return ", ".join([f"{header.cls}{where}", *extras])


def _title(file: Path) -> str:
    resolved = file.resolve()
    return f"{resolved.parent.name}/{resolved.name}" if resolved.parent.name else resolved.name


class _Scan(NamedTuple):
    entries: list[_Entry]
    trailing: bool  # diagnostics follow the last dump's IR (they are the last entry's too)
    logged: int  # the pass manager's log lines (-debug-pass-manager) between dumps, left out
    reported: int  # the lines of the compiler's reports (-ftime-report, -stats), left out
    cut_in: int  # the headers that start inside a line: several threads' output interleaved


def _scan(file: Path, part: Part) -> _Scan:
    """The header lines of the file, or of the part of it given (a chunk at a time: a stream may be larger than
    memory), each with the stretch of IR after it and the diagnostics before it (the first's: what the compiler
    said before any dump)."""
    found: list[tuple[int, int, int, Header, Module | None]] = []  # (header start, text start, row, header, module)
    diagnostics: list[int] = []  # where each line the compiler said between dumps starts
    size = cut_in = 0
    try:
        with file.open("rb") as handle:
            offset, rows, carry = part.start, part.row, b""
            for block in blocks(handle, part, _CHUNK):
                buffer = carry + block
                cut = buffer.rfind(b"\n") + 1
                chunk, carry = buffer[:cut], buffer[cut:]
                counted = 0
                for at in _line_starts_with_mark(chunk):
                    header = _header_at(chunk, at)
                    if header is not None:
                        rows += chunk.count(b"\n", counted, at)
                        counted = at
                        end = chunk.find(b"\n", at) + 1
                        module = _module_at(chunk, end, handle, offset)
                        found.append((offset + at, offset + end, rows, header, module))
                rows += chunk.count(b"\n", counted)
                cut_in += _cut_in(chunk)
                diagnostics += [offset + at for at in _said_lines(chunk)]
                offset += len(chunk)
            if carry:
                header = _header_at(carry, 0)
                if header is not None:
                    found.append((offset, offset + len(carry), rows, header, None))
                diagnostics += [offset + at for at in _said_lines(carry)]
                offset += len(carry)
            size = offset
    except OSError as err:
        raise DumpError(f"cannot read {file}: {err.strerror or err}") from None
    diagnostics.sort()
    entries: list[_Entry] = []
    said, reported, logged = between_dumps(
        Stretch(file, part.start, found[0][0] if found else size), DIAGNOSTIC, _PASS_MANAGER_LOG
    )
    for k, (_, text, row, header, module) in enumerate(found):
        stop = found[k + 1][0] if k + 1 < len(found) else size
        at = bisect_left(diagnostics, text)
        ends = diagnostics[at] if at < len(diagnostics) and diagnostics[at] < stop else stop
        entries.append(_Entry(header, row, Stretch(file, text, ends), said, module))
        said, report, log = between_dumps(Stretch(file, ends, stop), DIAGNOSTIC, _PASS_MANAGER_LOG)
        logged, reported = logged + log, reported + report
    if entries and said:  # after the last dump: shown with it
        last = entries[-1]
        entries[-1] = replace(last, warnings=(last.warnings or "") + said)
    return _Scan(entries, bool(entries and said), logged, reported, cut_in)


_MODULE_ID = b"; ModuleID = "
_TRIPLE = re.compile(rb'^target triple = "(?P<triple>[^"]*)"', re.M)


def _module_at(chunk: bytes, start: int, handle, offset: int) -> Module | None:
    """The module a dump whose text starts at `start` prints (`; ModuleID = 'lz4.c'`, after any blank lines, and
    the `target triple` in the lines under it); read from the file where the chunk ends first."""
    head = chunk[start : start + 4096]
    if len(head) < 4096 and start + len(head) == len(chunk):  # the rest is in the next chunk
        head = os.pread(handle.fileno(), 4096, offset + start)
    lines = head.lstrip(b"\n").split(b"\n\n", 1)[0]  # the module's header lines, to the first blank line
    if not lines.startswith(_MODULE_ID):
        return None
    name = lines[len(_MODULE_ID) :].split(b"\n", 1)[0].decode("utf-8", errors="replace").strip("'")
    triple = _TRIPLE.search(lines)
    return Module(name, triple["triple"].decode("utf-8", errors="replace") if triple else "")


_SEVERITIES = tuple(f": {word}: ".encode() for word in ("error", "fatal error", "warning", "note", "remark"))
# -debug-pass-manager's log (`Running pass: SROAPass on f`), printed before a pass's dump: neither IR nor a warning
_PASS_MANAGER_LOG = re.compile(
    r"^(?:Running (?:pass|analysis)|Skipping pass|Invalidating (?:analysis|all non-preserved analyses for)"
    r"|Clearing all analysis results for): "
)


def _said_lines(chunk: bytes) -> list[int]:
    """Where the lines of the chunk that the compiler said between dumps start: a diagnostic (`lz4.c:12:5: remark:
    ...`), the pass manager's log or a report's first line, with the blank lines above it (clang's `-print-stats`
    opens with one: no IR); found at C speed."""
    return [
        _blank_lines_above(chunk, start)
        for start in lines_holding(chunk, (*_SEVERITIES, *LOG_STARTS, *REPORT_MARKERS))
        if any(pattern.match(_line_at(chunk, start)) for pattern in (DIAGNOSTIC, _PASS_MANAGER_LOG, REPORT_START))
    ]


def _blank_lines_above(chunk: bytes, start: int) -> int:
    while start >= 2 and chunk[start - 2] == 0x0A:
        start -= 1
    return start


def _line_at(chunk: bytes, start: int) -> str:
    stop = chunk.find(b"\n", start)
    return chunk[start : len(chunk) if stop < 0 else stop].decode("utf-8", errors="replace")


def _dropped(entries: list[_Entry], drop) -> list[_Entry]:
    """The entries but those `drop` names; a dropped entry's diagnostics go to the next kept one, whose pass ran
    after them."""
    kept: list[_Entry] = []
    pending: str | None = None
    for entry in entries:
        said = (pending or "") + (entry.warnings or "") or None
        if drop(entry):
            pending = said
            continue
        kept.append(replace(entry, warnings=said) if said != entry.warnings else entry)
        pending = None
    if pending and kept:
        kept[-1] = replace(kept[-1], warnings=(kept[-1].warnings or "") + pending)
    return kept


_OPENED = (b"; *** IR Dump ", b"# *** IR Dump ")  # the headers that open with a mark of their own


def _cut_in(chunk: bytes) -> int:
    """How many headers start inside a line of the chunk (whole lines: it starts a line): another thread's output
    cut into that line. Only the headers opened by `; ` or `# ` are counted: a module may hold the bare header's
    words as a string (LLVM's own pass printer, compiled)."""
    return sum(chunk.count(mark) - chunk.count(b"\n" + mark) - chunk.startswith(mark) for mark in _OPENED)


def _line_starts_with_mark(chunk: bytes):
    """Offsets of the line starts in chunk whose line holds a header's mark where a header has it."""
    at = chunk.find(_MARK)
    while at >= 0:
        for prefix in PREFIXES:
            start = at - (len(prefix) - len(_MARK))
            if start >= 0 and chunk.startswith(prefix, start) and (start == 0 or chunk[start - 1] == 0x0A):
                yield start
                break
        at = chunk.find(_MARK, at + 1)


def _header_at(chunk: bytes, start: int) -> Header | None:
    stop = chunk.find(b"\n", start)
    line = chunk[start : len(chunk) if stop < 0 else stop]
    return parse_header(line.decode("utf-8", errors="replace"))
