"""Discovered dumps as snapshots, and what each is diffed against (Snapshot.base / base_text):
- Snapshot 0 is the pipeline's input: the whole IR printed before the first pass when the first dump is that
  (--mlir-print-ir-before-all), else an empty text: MLIR prints what passes produce, and making the first
  After dump snapshot 0 would hide the first pass. So that dump shows whole, as added, and Dump.notes says why.
- Every dump is a snapshot, Before dumps (--mlir-print-ir-before-all) included, named by the pass
  argument ("canonicalize"). An After dump is diffed against the latest Before dump of the same op
  and pass that no After has answered yet: that is exactly what the pass did, whatever ran between.
- A whole dump (--mlir-print-ir-module-scope, or a dump of the top-level op) is diffed against the
  previous whole dump, with the local-scope dumps since put in place of their ops (the IR its pass
  received: else it would show what those passes changed as its own). A local-scope dump holds only
  its op: it is shown put into the whole IR as it stands, and diffed against the IR as it stood before
  it (the dump before it, shown so too), so local and module scope of one compile show the same texts.
  Before the first whole dump, or once an op is not found in it, a local dump is shown alone: diffed
  against that op's previous dump, or, for the op's first dump, against the op's text cut out of the
  latest dump of an enclosing op (indentation removed), or against the empty input when there is none.
The format-neutral splice (splice.py) applies these rules: each dump is given to it as what it prints (a local
dump its op, named by its op_id), and scope.py says how ops lie in a text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ... import printed_before, splice
from ...dump import Dump, Snapshot, packed
from . import INPUT_NAME, ops, scope
from .entries import Entry

# Local dumps are shown in the whole IR while the texts so shown total at most this many times the dumps' own
# size, or WHOLE_VIEW_FLOOR characters: the real compiles of fixtures/mlir/real show 0.1 to 5 times their local
# dumps' size so, but 2,000 one-function dumps of a 2,000-function module would show it 2,000 times
WHOLE_VIEW_RATIO = 8
WHOLE_VIEW_FLOOR = 1_000_000


def dump(source: Path, entries: list[Entry], notes: list[str], format_name: str) -> Dump:
    shared: set[tuple[int, int]] = set()
    bound = max(WHOLE_VIEW_FLOOR, WHOLE_VIEW_RATIO * sum(entry.size() for entry in entries))
    found = splice.bases(_printed(entries), scope.grammar(entries, shared), _names(entries), whole_view=bound)
    notes.extend(_scope_notes(entries, found, shared))
    ops.forget()  # the whole dumps the lookups hold: the report is built without them
    given = _is_input(entries[0], found)
    notes.insert(0, _input_note(entries[0]) if given else _NO_INPUT)
    snapshots = [_input(entries[0]) if given else _EMPTY_INPUT]
    offset = 0 if given else 1  # dump k is snapshot k + offset: the input is dump 0, or not dumped
    whole = set(found.told_whole)
    based_on = packed([base.text for base in found.bases])
    for k, (entry, base, text, shown) in enumerate(zip(entries, found.bases, based_on, found.shown)):
        if given and k == 0:
            continue
        index = k + offset
        if given and base.dump == splice.INPUT:  # an op no dump held: against nothing, not the IR given as input
            base, text = splice.Base(None, "", splice.NOTHING), packed([""])[0]
        at = None if base.dump is None else 0 if base.dump == splice.INPUT else base.dump + offset
        local = _holds_its_op(entry, k, whole)
        snapshots.append(
            Snapshot(
                index=index,
                label=str(index),
                name=entry.header.arg,
                filename=entry.filename,
                content=None,
                warnings=entry.warnings,
                path=entry.path,
                source=entry.body,
                shown=shown,
                detail=_detail(entry, local, whole=shown is not None),
                failed=entry.header.failed,
                printed_before=entry.header.before,
                base=None if at == index - 1 else at,
                based_on=text,
                base_name=base.name,
                header=entry.header.text,
            )
        )
    first = _first_pass(entries[0], _holds_its_op(entries[0], 0, whole)) if given else None
    snapshots, said = printed_before.charged(snapshots, first)
    notes.extend([said] if said else [])
    return Dump(title=_title(source), snapshots=tuple(snapshots), format=format_name, notes=tuple(notes))


def _first_pass(entry: Entry, local: bool) -> printed_before.Pass:
    """The pass the input was printed before."""
    return printed_before.Pass.printed(entry.header.arg, _detail(entry, local, whole=False), entry.header.text)


_NO_INPUT = "MLIR dumps hold no copy of the pipeline's input: snapshot 0 is empty, so the first dump shows as added"
_EMPTY_INPUT = Snapshot(0, "0", INPUT_NAME, INPUT_NAME, "", None, detail="the pipeline's input is not dumped")


def _is_input(entry: Entry, found: splice.Found) -> bool:
    """Whether the first dump is the pipeline's input: the whole IR printed before the first pass
    (--mlir-print-ir-before-all; at local scope its header names no op, and its text tells the splice so)."""
    return entry.header.before and (not (entry.local or entry.told) or 0 in found.told_whole)


def _input(entry: Entry) -> Snapshot:
    return Snapshot(0, "0", "input", entry.filename, None, None, path=entry.path, source=entry.body)


def _input_note(entry: Entry) -> str:
    return f"the pipeline's input (snapshot 0) is the IR printed before its first pass, {entry.header.arg}"


def _printed(entries: list[Entry]) -> Iterator[splice.Printed]:
    """Each entry as the splice reads it: a local dump prints its op, named by its op_id (its op folder in a tree,
    where the folders above it name the ops around it); any other dump prints the whole IR."""
    for entry in entries:
        step = (entry.op_id, entry.header.arg)
        if entry.local or entry.told:
            yield splice.Printed(
                splice.UNITS,
                _once(entry.body.read),
                unit=entry.op_id,
                within=entry.ancestors,
                told=entry.told,
                step=step,
                before=entry.header.before,
            )
        else:
            yield splice.Printed(splice.WHOLE, _once(entry.body.read), step=step, before=entry.header.before)


def _once(read: Callable[[], str]) -> Callable[[], str]:
    """The text read at the first call, kept for the next (functools.cache costs more to make, once per dump)."""
    kept: list[str] = []

    def text() -> str:
        if not kept:
            kept.append(read())
        return kept[0]

    return text


def _names(entries: list[Entry]) -> splice.Names:
    where = {entry.op_id: entry.where or entry.op_id for entry in entries}
    return replace(
        splice.names(lambda at: entries[at].filename),
        spliced=lambda whole, count: f"{entries[whole].filename} with the {count} local dump(s) after it put in",
        units=lambda keys, source: (
            f"{where.get(keys[0]) or scope.described(keys[0])} "
            + (
                f"cut out of {entries[source].filename}"
                if source is not None
                else "with the local dumps inside it since"
            )
        ),
    )


def _scope_notes(entries: list[Entry], found: splice.Found, shared_at: set[tuple[int, int]]) -> list[str]:
    notes = []
    if any(e.local for e in entries):
        notes.append(
            "local-scope dumps (no --mlir-print-ir-module-scope) hold only their op: each is shown in the whole IR "
            "as it stands (the last dump of the whole IR with the local dumps since put in place of their ops), "
            "diffed against the IR as it stood before it; a dump of the whole IR after local ones is diffed "
            "against that IR, named as it names its attributes"
        )
        whole = set(found.told_whole)
        alone = sum(
            1
            for k, (entry, shown) in enumerate(zip(entries, found.shown))
            if _holds_its_op(entry, k, whole) and shown is None
        )
        if alone:
            over = (
                f"; from {found.over + 1} {entries[found.over].header.arg} on, the whole IR shown once per local "
                f"dump would have been more than {WHOLE_VIEW_RATIO} times the dumps' size"
                if found.over is not None
                else ""
            )
            notes.append(
                f"{alone} local-scope dump(s) are shown alone (before the first dump of the whole IR, or of an op "
                f"it does not hold{over}): each is diffed against that op's previous dump, its first dump against "
                "the op cut out of the last dump of an enclosing op"
            )
    if found.unspliced:
        notes.append(
            f"{found.unspliced} dump(s) of the whole IR follow a local dump whose op was not found in the previous "
            "whole dump: they are diffed against that whole dump, so they also show what the local passes changed"
        )
    if found.first_whole is not None:
        first = f"{found.first_whole + 1} {entries[found.first_whole].header.arg}"
        notes.append(
            f"the first dump of the whole IR ({first}) comes after local dumps only: the IR its pass received "
            "was never printed whole, so it is shown against the empty input and its counts are the whole IR's"
        )
    shared = _shared(entries, found.unfound, shared_at)
    if shared:
        notes.append(
            f"local-scope dumps of {', '.join(shared)} cannot be told apart: several modules define that name "
            "and the dump says no more (a tree's folders would), so each is diffed against the previous dump of "
            "that name, whichever module it came from"
        )
    if found.unseen:
        notes.append(
            f"{len(found.unseen)} local-scope op(s) had no enclosing dump to cut their text from (e.g. "
            f"{entries[found.unseen[0]].filename}): their first dump is shown against the empty input"
        )
    return notes


def _shared(entries: list[Entry], unfound: list[tuple[int, int]], shared_at: set[tuple[int, int]]) -> list[str]:
    """The ops whose local dumps were not found in an enclosing dump because several ops there carry their name
    (`shared_at`: what the splice's search found, by dump and hash of the text searched)."""
    text = lru_cache(maxsize=2)(lambda at: entries[at].body.read())  # the text searched, read once
    shared: list[str] = []
    for at, source in unfound:
        entry = entries[at]
        if entry.op_id not in shared and (at, hash(text(source))) in shared_at:
            shared.append(entry.op_id)
    return shared


def _holds_its_op(entry: Entry, at: int, told_whole: set[int]) -> bool:
    """Whether dump `at` holds one op of the IR: a local dump, or a told one its text told so (a module that could
    have been the top-level one)."""
    return entry.local or (entry.told and at not in told_whole)


def _detail(entry: Entry, local: bool, whole: bool) -> str:
    """What the pass ran on, and how it was dumped; `local`: the dump holds one op of the IR (its text told so,
    for a module that could have been the top-level one); `whole`: it is shown put into the IR as it stands."""
    header = entry.header
    if header.op:
        detail = f"{header.cls} on {header.op}" + (f" {header.sym}" if header.sym else "")
    elif entry.where:
        detail = f"{header.cls} on {entry.where}"
    elif local:
        detail = f"{header.cls} on {entry.op_id}"
    else:
        detail = header.cls
    extras = [
        *([printed_before.BEFORE] if header.before else []),
        *(["failed"] if header.failed else []),
        *(["local scope, shown in the whole IR" if whole else "local scope"] if local else []),
    ]
    return ", ".join([detail, *extras])


def _title(source: Path) -> str:
    resolved = source.resolve()
    return f"{resolved.parent.name}/{resolved.name}" if resolved.parent.name else resolved.name or str(source)
