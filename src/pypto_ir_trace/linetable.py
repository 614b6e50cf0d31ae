"""The report's table of distinct lines: each line's id, text and facts (highlight spans, names, ops, dump-level
marks), read once from the first tree it is seen in, or taken from a line read before that is it at another indent
or of its shape (Language.shape: a value renumbered). Shared by every pipeline of a report."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import TypeVar

from . import renumber, structure
from .linefacts import KEY_PARTS, LineFacts

T = TypeVar("T")


class LineTable:
    """The report's table of distinct lines and their highlight spans, shared by every pipeline."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.texts: list[str] = []  # line id -> its text
        # Highlight spans as a table of distinct span lists: lines of one shape (the same tokens at the same
        # columns) share one entry, which keeps the report and its encoding small on generated code.
        self.spans: dict[tuple[int, ...], int] = {(): 0}  # span list -> its index in the table
        self.line_spans: list[int] = []  # line id -> index of its spans in the table
        # What the viewer may elide of a line (highlight.elisions_of), as a table of distinct lists too
        self.elisions: dict[tuple[int, ...], int] = {(): 0}
        self.line_elisions: list[int] = []  # line id -> index of its elisions in the table
        # Languages with value names: by line id, its text with its names masked and the names (renumber.Masked),
        # masked once for every diff that changes the line; the masked text is kept as its id in masked_texts
        # (lines that differ by their names only share one), -1 for a line without names. Lists by line id, not
        # dicts: 16 bytes a line, not 90 (IREE mlp's local stream: 70,000 lines, 5 MB less).
        self.masked: list[int] = []
        self.names: list[tuple[str, ...]] = []
        self.masked_texts: dict[str, int] = {}
        self.marks: dict[int, int] = {}  # line id -> its dump-level marks (formats that have them; few lines)
        # Lines that may nest brackets past structure.MAX_NESTING (looked at once): only those rows are looked at again.
        self.deep: set[int] = set()
        self.keys: dict[int, str] = {}  # line id -> what it names that a dump level may hide (DumpLevel.keys)
        self.ops: list[tuple[str, ...]] = []  # line id -> the ops it runs (languages that name them)
        # One copy of each value name and op list: lines repeat them (`%c0`, `arith.constant`), and a copy per
        # line was most of the facts' memory (IREE mlp's local stream: 23 of 74 MB at its peak)
        self._one: dict = {}
        # A line's text less its indent (by its hash) -> the first line of that text whose facts are read: a line
        # that differs from it only by its indent takes its facts, moved, and is not read from a tree again. MLIR's
        # local scope prints each op at column 0 and again inside the module (IREE mlp: 63,469 of 70,665 lines).
        self._settled: dict[int, int] = {}
        # A line's shape (Language.shape, by its hash) -> the first line of it read from a tree without errors: a
        # line of that shape takes its facts, moved and named by its own text, and is not read from a tree again. A
        # pass that renumbers values prints lines of shapes read before (the sparsifier's module-scope stream:
        # 11,845 distinct lines, 2,635 shapes). Lines read from trees with errors are not: a line tree-sitter's
        # recovery misread (no op in an IREE `hal.interface.binding.subspan` line) would give its misreading to
        # lines it never touched, and a pass's op counts would change where the IR's did not.
        self._shaped: dict[int, int] = {}
        # A language read by its lines: a line's shape (LineReader.shape) -> the facts of the first line of it read
        self.shapes: dict = {}
        self._span_list: list[tuple[int, ...]] = [()]  # the span and elision tables and the masked texts by index
        self._elision_list: list[tuple[int, ...]] = [()]
        self._masked_list: list[str] = []

    def intern(self, lines: list[str]) -> tuple[list[int], list[tuple[int, int]]]:
        """Line ids, and the [first, stop) row ranges of lines never seen before (only those get highlighted): a
        line seen before at another indent takes that line's facts and is not among them."""
        table, texts, settled = self.ids, self.texts, self._settled
        ids = list(map(table.get, lines, repeat(-1)))  # -1 until interned below
        new_rows: list[tuple[int, int]] = []
        moved: list[tuple[int, int]] = []  # (line id, the line at another indent whose facts it takes)
        first = stop = -1  # the stretch of new rows being gathered
        for row in _positions(ids, -1):
            line = lines[row]
            count = len(table)
            ids[row] = line_id = table.setdefault(line, count)
            if line_id == count:  # first seen here
                texts.append(line)
                if structure.may_nest_deep(line):
                    self.deep.add(line_id)
                source = settled.get(hash(line.lstrip(" ")), -1) if settled else -1
                if source >= 0 and self._movable(source, line):
                    moved.append((line_id, source))
                    continue
                if row != stop:  # measured: merging across gaps costs more than it saves
                    if first >= 0:
                        new_rows.append((first, stop))
                    first = row
                stop = row + 1
        if first >= 0:
            new_rows.append((first, stop))
        added = len(table) - len(self.line_spans)
        self.line_spans += [0] * added
        self.line_elisions += [0] * added
        self.masked += [-1] * added
        self.names += [()] * added
        self.ops += [()] * added
        for line_id, source in moved:
            self._move(line_id, source)
        return ids, new_rows

    def settle(self, ids: list[int], rows: list[tuple[int, int]]) -> None:
        """The lines of the row ranges have their facts for good (their text is read): lines that differ from
        one of them only by their indent may take them."""
        settled, texts = self._settled, self.texts
        for first, stop in rows:
            for line_id in ids[first:stop]:
                settled.setdefault(hash(texts[line_id].lstrip(" ")), line_id)

    def shaped(self, ids: list[int], rows: list[tuple[int, int]], shape: Callable[[str], Hashable]) -> None:
        """The lines of the row ranges were read from a tree without errors: lines of their shapes may take their
        facts."""
        shaped, texts = self._shaped, self.texts
        for first, stop in rows:
            for line_id in ids[first:stop]:
                shaped.setdefault(hash(shape(texts[line_id])), line_id)

    def alike(
        self, ids: list[int], rows: list[tuple[int, int]], shape: Callable[[str], Hashable]
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int, Hashable]]]:
        """The row ranges of these new rows of a text without syntax errors to read from its tree, and (row, the line
        of its shape read before it, the shape) of the others, whose facts may be derived: a line of that shape read
        from a tree without errors (_shaped), or the first of its shape in these rows."""
        shaped, texts = self._shaped, self.texts
        first_here: dict[int, int] = {}  # shape -> the first line of it in these rows
        read: list[int] = []
        taken: list[tuple[int, int, Hashable]] = []
        for first, stop in rows:
            for row in range(first, stop):
                found = shape(texts[ids[row]])
                key = hash(found)
                source = shaped.get(key, -1)
                if source < 0:
                    source = first_here.setdefault(key, ids[row])
                if source == ids[row]:
                    read.append(row)
                else:
                    taken.append((row, source, found))
        return ranges(read), taken

    def derived(
        self,
        ids: list[int],
        taken: list[tuple[int, int, Hashable]],
        rows: list[tuple[int, int]],
        read: LineFacts,
        shape: Callable[[str], Hashable],
    ) -> tuple[LineFacts, list[int]]:
        """The facts of the taken rows (alike), each its source line's at its own columns (_Source.carry): a source
        among the row ranges read as `read` has it, another as the table keeps it; and the rows whose source's facts
        do not carry over, to be read from the tree."""
        row_of = {ids[row]: row for first, stop in rows for row in range(first, stop)}
        read_here = _ReadFacts(read)
        sources: dict[int, _Source | None] = {}
        facts, left = LineFacts(), []
        for row, source, found in taken:
            if source not in sources:
                text = self.texts[source]
                if source in row_of:
                    sources[source] = _Source.of(text, shape(text), *read_here.of(row_of[source]))
                else:
                    sources[source] = self._source(source, shape(text))
            own = sources[source]
            if own is None or own.shape != found or not own.carry(facts, row, self.texts[ids[row]]):
                left.append(row)
        return facts, left

    def _source(self, line_id: int, shape: Hashable) -> _Source | None:
        """A line's facts as the table keeps them; None when its names cannot be found again from its masked text
        (the line holds a NUL of its own)."""
        masked, text = self.masked[line_id], self.texts[line_id]
        if masked >= 0 and "\0" in text:
            return None
        return _Source.of(
            text,
            shape,
            self._span_list[self.line_spans[line_id]],
            renumber.spans_of(self._masked_list[masked], self.names[line_id]) if masked >= 0 else (),
            self.marks.get(line_id, 0),
            self._elision_list[self.line_elisions[line_id]],
            self.keys.get(line_id),
            self.ops[line_id],
        )

    def _movable(self, source: int, line: str) -> bool:
        """Whether the line is the source line at another indent, with nothing of the source's facts in its indent."""
        text = self.texts[source]
        indent = len(text) - len(text.lstrip(" "))
        if text[indent:] != line.lstrip(" "):  # the same hash, another text
            return False
        spans, elided = self._span_list[self.line_spans[source]], self._elision_list[self.line_elisions[source]]
        return (not spans or spans[0] >= indent) and (not elided or elided[0] >= indent)

    def _move(self, line_id: int, source: int) -> None:
        """The source line's facts for this line, which is it at another indent: columns moved by the difference."""
        text, line = self.texts[source], self.texts[line_id]
        old, new = len(text) - len(text.lstrip(" ")), len(line) - len(line.lstrip(" "))
        if spans := self._span_list[self.line_spans[source]]:
            self.line_spans[line_id] = self._shape(self.spans, self._span_list, (spans[0] - old + new, *spans[1:]))
        if elided := self._elision_list[self.line_elisions[source]]:
            moved = (elided[0] - old + new, *elided[1:])
            self.line_elisions[line_id] = self._shape(self.elisions, self._elision_list, moved)
        if self.masked[source] >= 0:
            masked = line[:new] + self._masked_list[self.masked[source]][old:]
            self.masked[line_id] = self._shape(self.masked_texts, self._masked_list, masked)
            self.names[line_id] = self.names[source]
        self.ops[line_id] = self.ops[source]
        if source in self.marks:
            self.marks[line_id] = self.marks[source]
        if source in self.keys:
            self.keys[line_id] = self.keys[source]

    @staticmethod
    def _shape(table: dict[T, int], listed: list[T], shape: T) -> int:
        """The index of a span or elision list, or a masked text, in its table, added when new."""
        index = table.setdefault(shape, len(table))
        if index == len(listed):
            listed.append(shape)
        return index

    def store(self, ids: list[int], facts: LineFacts) -> None:
        """What _facts read of a text's new rows, kept per line: the first tree a line is seen in speaks."""
        table, line_spans = self.spans, self.line_spans
        for row, spans in facts.spans:
            if not line_spans[ids[row]]:
                line_spans[ids[row]] = self._shape(table, self._span_list, spans)
        for row, elided in facts.elisions:
            if not self.line_elisions[ids[row]]:
                self.line_elisions[ids[row]] = self._shape(self.elisions, self._elision_list, elided)
        one = self._one
        for row, named in facts.names:
            masked, names = renumber.masked(self.texts[ids[row]], named)
            self.masked[ids[row]] = self._shape(self.masked_texts, self._masked_list, masked)
            self.names[ids[row]] = tuple([one.setdefault(name, name) for name in names])
        for row, mark in facts.marks:
            self.marks[ids[row]] = self.marks.get(ids[row], 0) | mark
        for row, key in facts.keys:
            self.keys[ids[row]] = key
        for row, run in facts.ops:
            self.ops[ids[row]] = one.setdefault(run, run)

    def forget(self, ids: list[int], rows: list[tuple[int, int]]) -> None:
        """Drops what was stored for the lines in the row ranges (a text read in pieces, then whole)."""
        for first, stop in rows:
            for line_id in ids[first:stop]:
                self.line_spans[line_id] = 0
                self.line_elisions[line_id] = 0
                self.masked[line_id], self.names[line_id], self.ops[line_id] = -1, (), ()
                self.marks.pop(line_id, None)
                self.keys.pop(line_id, None)

    def level(self, ids: list[int], dump_level: Callable[[int], str | None]) -> str | None:
        marks = 0
        for line_id in set(ids).intersection(self.marks):
            marks |= self.marks[line_id]
        return dump_level(marks)

    def implicit(self, texts: list[list[int]], wanted: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The ids, among these texts' lines, of those with a wanted mark (sorted), and each one's type class:
        lines of one key share it, numbered in id order."""
        marked = {i for i, marks in self.marks.items() if marks & wanted} if wanted else set()
        ids = tuple(sorted(marked.intersection(chain.from_iterable(texts)))) if marked else ()
        classes: dict[str, int] = {}
        return ids, tuple(classes.setdefault(self.keys.get(i, ""), len(classes)) for i in ids)


def _positions(items: list, item) -> Iterator[int]:
    """Where an item occurs in a list, in order, each found at C speed (a text's new lines are few)."""
    at = -1
    try:
        while True:
            at = items.index(item, at + 1)
            yield at
    except ValueError:
        return


def ranges(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted rows as [first, stop) ranges of consecutive rows."""
    ranges: list[tuple[int, int]] = []
    for row in rows:
        if ranges and ranges[-1][1] == row:
            ranges[-1] = (ranges[-1][0], row + 1)
        else:
            ranges.append((row, row + 1))
    return ranges


@dataclass(frozen=True, slots=True)
class _Source:
    """A line whose facts the lines of its shape take (LineTable.derived): its facts (LineFacts' fields for its row)
    at its own columns, and what decides where they carry over."""

    shape: Hashable  # Language.shape of its text
    body: str  # its text past its indent
    indent: int
    carries: bool  # nothing of its facts lies in its indent
    digit_ops: bool  # an op name with a digit: its ops are only its own text's
    key_at: (
        tuple[tuple[int, str], ...] | None
    )  # its dump-level key's parts and where each is in its body (None: not found)
    spans: tuple[int, ...]
    names: Sequence[tuple[int, int]]
    mark: int
    elisions: tuple[int, ...]
    key: str | None
    ops: tuple[str, ...]

    @classmethod
    def of(cls, text: str, shape: Hashable, spans, names, mark, elisions, key, ops) -> _Source:
        body = text.lstrip(" ")
        indent = len(text) - len(body)
        carries = not (spans and spans[0] < indent) and not (elisions and elisions[0] < indent)
        digit_ops = any(map(str.isdigit, "".join(ops)))
        return cls(
            shape, body, indent, carries, digit_ops, _parts_at(body, key), spans, names, mark, elisions, key, ops
        )

    def carry(self, facts: LineFacts, row: int, line: str) -> bool:
        """Adds these facts to `facts` as those of `line`, of its shape, at `row`: columns moved by the indent's
        difference, names read at theirs (LineFacts.names are spans). False when they do not carry over."""
        new = len(line) - len(line.lstrip(" "))
        if not self.carries:
            return False
        if not line.endswith(self.body) and (self.digit_ops or not self._key_kept(line, new)):  # other digits
            return False
        shift = new - self.indent
        if self.spans:
            facts.spans.append((row, (self.spans[0] + shift, *self.spans[1:]) if shift else self.spans))
        if self.names:
            moved = [(start + shift, end + shift) for start, end in self.names] if shift else self.names
            facts.names.append((row, moved))
        if self.mark:
            facts.marks.append((row, self.mark))
        if self.elisions:
            facts.elisions.append((row, (self.elisions[0] + shift, *self.elisions[1:]) if shift else self.elisions))
        if self.key is not None:
            facts.keys.append((row, self.key))
        if self.ops:
            facts.ops.append((row, self.ops))
        return True

    def _key_kept(self, line: str, indent: int) -> bool:
        """Whether the line holds this line's dump-level key where it holds it (a type's shape, `[64, 128]`, is
        in the key; a value's number is not): none, or each of its parts at its column."""
        if self.key is None:
            return True
        return self.key_at is not None and all(line.startswith(part, indent + at) for at, part in self.key_at)


def _parts_at(body: str, key: str | None) -> tuple[tuple[int, str], ...] | None:
    """Where each part of a dump-level key (its captures' texts in line order, DumpLevel.keys) is in the line's body:
    each looked for from the end of the one before; None when one is not found."""
    if key is None:
        return ()
    found, at = [], 0
    for part in key.split(KEY_PARTS):
        start = body.find(part, at)
        if start < 0:
            return None
        found.append((start, part))
        at = start + len(part)
    return tuple(found)


class _ReadFacts:
    """A LineFacts record looked up by row: the facts read of a text's rows, for the rows of their shapes."""

    def __init__(self, read: LineFacts):
        self.spans, self.names, self.elisions = dict(read.spans), dict(read.names), dict(read.elisions)
        self.keys, self.ops = dict(read.keys), dict(read.ops)
        self.marks: dict[int, int] = {}
        for row, mark in read.marks:
            self.marks[row] = self.marks.get(row, 0) | mark

    def of(self, row: int) -> tuple:
        """The row's facts in _Source's order, from spans to ops."""
        return (
            self.spans.get(row, ()),
            self.names.get(row, ()),
            self.marks.get(row, 0),
            self.elisions.get(row, ()),
            self.keys.get(row),
            self.ops.get(row, ()),
        )
