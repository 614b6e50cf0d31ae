"""Discovered dumps as snapshots, and what each is diffed against (Snapshot.base / base_text):
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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ...dump import Dump, Snapshot
from . import scope
from .entries import Entry
from .ops import ops_of

INPUT = "(input not dumped)"  # snapshot 0's file name


@dataclass
class _Bases:
    """What each entry is diffed against, and what the notes must say about it."""

    # (base index, base text, what that text is) per entry, snapshot indices counting the empty input as 0
    of: list[tuple[int | None, str | None, str]] = field(default_factory=list)
    uncut: list[str] = field(default_factory=list)  # local dumps that had nothing to cut their op from
    # whole dumps that could not be given the local dumps before them (diffed against the previous whole
    # dump, so they also show what those passes changed)
    unspliced: int = 0
    unseen: str = ""  # the first whole dump when local dumps came before it ("21 finalize-memref-to-llvm")
    # the ops whose local dumps cannot be told apart (a name several modules define, in a stream that says no more)
    shared: list[str] = field(default_factory=list)


def dump(source: Path, entries: list[Entry], notes: list[str], format_name: str) -> Dump:
    notes.insert(
        0, "MLIR dumps hold no copy of the pipeline's input: snapshot 0 is empty, so the first dump shows as added"
    )
    found = _bases(entries)
    notes.extend(_scope_notes(entries, found))
    snapshots = [Snapshot(0, "0", "input", INPUT, "", None, detail="the pipeline's input is not dumped")]
    for index, (entry, (base, base_text, base_name)) in enumerate(zip(entries, found.of), start=1):
        snapshots.append(
            Snapshot(
                index=index,
                label=str(index),
                name=entry.header.arg,
                filename=entry.filename,
                content=entry.content,
                warnings=entry.warnings,
                path=entry.path,
                stretch=entry.stretch,
                detail=_detail(entry),
                failed=entry.header.failed,
                base=None if base == index - 1 and base_text is None else base,
                base_text=base_text,
                base_name=base_name,
                header_lines=1,
                header=entry.header.text,
            )
        )
    return Dump(title=_title(source), snapshots=tuple(snapshots), format=format_name, notes=tuple(notes))


def _scope_notes(entries: list[Entry], found: _Bases) -> list[str]:
    notes = []
    if any(e.local for e in entries):
        notes.append(
            "local-scope dumps (no --mlir-print-ir-module-scope) hold only their op: each is diffed against that "
            "op's previous dump, its first dump against the op cut out of the last dump of an enclosing op; "
            "a dump of the whole IR after local ones is diffed against the previous whole dump with those "
            "local dumps put in place of their ops"
        )
    if found.unspliced:
        notes.append(
            f"{found.unspliced} dump(s) of the whole IR follow a local dump whose op was not found in the previous "
            "whole dump: they are diffed against that whole dump, so they also show what the local passes changed"
        )
    if found.unseen:
        notes.append(
            f"the first dump of the whole IR ({found.unseen}) comes after local dumps only: the IR its pass received "
            "was never printed whole, so it is shown against the empty input and its counts are the whole IR's"
        )
    if found.shared:
        notes.append(
            f"local-scope dumps of {', '.join(found.shared)} cannot be told apart: several modules define that name "
            "and the dump says no more (a tree's folders would), so each is diffed against the previous dump of "
            "that name, whichever module it came from"
        )
    if found.uncut:
        notes.append(
            f"{len(found.uncut)} local-scope op(s) had no enclosing dump to cut their text from (e.g. "
            f"{found.uncut[0]}): their first dump is shown against the empty input"
        )
    return notes


def _bases(entries: list[Entry]) -> _Bases:
    """What each entry is diffed against (the module docstring's rules), in one pass over the entries."""
    found = _Bases()
    last_of: dict[str, int] = {}
    open_before: dict[tuple[str, str], int] = {}
    last_whole = 0
    # The last whole dump with every local dump since put in place of its op: what a whole dump's pass
    # received. None: no local dump since.
    current: scope.Splice | None = None
    lost = False  # a local dump since the last whole dump could not be put in
    text_of = lru_cache(maxsize=2)(lambda index: entries[index - 1].text())  # an enclosing dump, read once
    for index, entry in enumerate(entries, start=1):
        step = (entry.op_id, entry.header.arg)
        base, text, name = None, None, ""
        if not entry.header.before and step in open_before:
            base = open_before.pop(step)
        elif not entry.local:
            if current is not None and not lost:
                text = current.text().split("\n", 1)[1]
                name = f"{entries[last_whole - 1].filename} with the {current.count} local dump(s) after it put in"
            else:
                base = last_whole
                found.unspliced += lost
                if not last_whole and last_of:  # only local dumps so far: nothing to put them in
                    found.unseen = f"{index} {entry.header.arg}"
        else:
            base, text, name = _local_base(entries, text_of, entry, last_of, last_whole, found)
        if entry.header.before:
            open_before[step] = index
        last_of[entry.op_id] = index
        if not entry.local:
            last_whole, current, lost = index, None, False
        elif last_whole and not lost:
            current = current or scope.Splice(text_of(last_whole))
            lost = not current.put(entry)
        found.of.append((base, text, name))
    return found


def _local_base(
    entries: list[Entry], text_of, entry: Entry, last_of: dict[str, int], last_whole: int, found: _Bases
) -> tuple[int | None, str | None, str]:
    """A local dump's base: the op as it stands now, its own last dump, unless a dump of an enclosing op came
    after it (a module pass changes functions too): then the op cut out of that one."""
    base, text, name = None, None, ""
    own = last_of.get(entry.op_id)
    enclosing = [last_of[a] for a in entry.ancestors if a in last_of]
    if last_whole:
        enclosing.append(last_whole)
    if enclosing and (own is None or max(enclosing) > own):
        source = entries[max(enclosing) - 1]
        ops = ops_of(text_of(max(enclosing)))
        text = scope.cut(ops, entry)
        name = f"{entry.where or entry.op_id} cut out of {source.filename}" if text is not None else ""
        if text is None and entry.op_id not in found.shared and scope.defined_more_than_once(ops, entry):
            found.shared.append(entry.op_id)
    if text is None:
        base = own if own is not None else 0
        if own is None:
            found.uncut.append(entry.filename)
    return base, text, name


def _detail(entry: Entry) -> str:
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
