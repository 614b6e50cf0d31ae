"""Build the report model from dumps: read each snapshot once, parse each distinct text once, diff each pass."""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from itertools import compress
from typing import TypeVar

from tree_sitter import Tree

from . import __version__, compare, filters, grammar, highlight, linediff, opcounts, pipeline_map, renumber, structure
from .chunked import PieceReader
from .dump import Dump, Snapshot, split_lines
from .formats import Format, format_of
from .incremental import IncrementalParser
from .languages import LineReader
from .linefacts import LineFacts
from .linetable import LineTable, ranges
from .model import Anchor, Diff, Input, Newlines, Pass, Piece, Pipeline, Report, Text
from .structure import Structure

Progress = Callable[[int, int], None]  # (snapshots done, snapshots in all)
T = TypeVar("T")


class _Read:
    """A distinct text, read once for the whole report: its line ids at once, its structure when it is
    first needed (by then the workers have read its pieces while the passes before it were diffed)."""

    def __init__(self, newlines: Newlines, ids: list[int], finish: Callable[[], Structure]):
        self.newlines = newlines
        self.ids = ids
        self._finish: Callable[[], Structure] | None = finish
        self._structure: Structure | None = None

    @property
    def structure(self) -> Structure:
        self.finish()
        assert self._structure is not None
        return self._structure

    def finish(self) -> None:
        """Reads the text to the end: its structure, and the facts of the lines it shows first."""
        if self._finish is not None:
            self._structure, self._finish = self._finish(), None  # drops the text it held


class _Working:
    """A distinct text while its pipeline is built; frozen into model.Text at the end."""

    def __init__(self, read: _Read, digest: bytes):
        self.read = read
        self.newlines = read.newlines
        self.ids = read.ids
        self.digest = digest  # of the text: byte-identical texts, also across pipelines
        self.produced_by: int | None = None
        # Served as a pass's before text while no pass had produced it (an explicit base text, or the input):
        # stored whole, never later rebuilt from a pass, whose before text may be rebuilt from this one.
        self.root = False

    @property
    def structure(self) -> Structure:
        return self.read.structure


def build(
    dumps: tuple[Dump, ...],
    context: int,
    progress: Progress | None = None,
    baseline: int | None = None,
    title: str | None = None,
) -> Report:
    """The model of one or more pipelines, each named by its dump (`name`, else its title); the report is
    titled `title`, else by the first dump.

    With `baseline`, dumps[:baseline] are this run and dumps[baseline:] the baseline: the report compares
    the first pipeline of each (its runs section).
    """
    lines = LineTable()
    parsed: dict[bytes, _Read] = {}  # language + digest -> a text read once for the whole report
    workings: list[list[_Working]] = [[] for _ in dumps]
    # (before digest, after digest) -> a pass's diff and its renamed line pairs, for the whole report
    diffs: dict[tuple[bytes, bytes], tuple[Diff, tuple[tuple[int, int], ...]]] = {}
    total = sum(len(dump.snapshots) for dump in dumps)
    done = [0]

    def step() -> None:
        done[0] += 1
        if progress:
            progress(done[0], total)

    pipelines = tuple(
        _pipeline(dump, dump.name or dump.title, lines, step, parsed, workings[i], diffs)
        for i, dump in enumerate(dumps)
    )
    # The two runs' snapshots are diffed across pipelines: their lines' names are in the shared table too.
    across = _Names(
        baseline is not None and pipelines[0].renumbering and pipelines[baseline].renumbering, lines, remember=True
    )
    return Report(
        title=title or dumps[0].title,
        generator=f"pypto-ir-trace {__version__}",
        context=context,
        limits=dict(linediff.LIMITS),
        classes=highlight.classes(),
        lines=tuple(lines.ids),
        spans=tuple(lines.spans),
        line_spans=tuple(lines.line_spans),
        elisions=tuple(lines.elisions) if len(lines.elisions) > 1 else (),
        line_elisions=tuple(lines.line_elisions) if len(lines.elisions) > 1 else (),
        pipelines=pipelines,
        runs=_runs(pipelines, workings, baseline, across, lines),
        # what the page's filters hide (two runs: those either run offers)
        hidden_ops=filters.hidden_ops({f for p in pipelines for f in p.filters}, lines.texts, lines.ops),
    )


def _runs(pipelines, workings, baseline: int | None, across: _Names, lines: LineTable):
    """The runs section of a report comparing two runs (imported only then: most reports compare none)."""
    if baseline is None:
        return None
    from . import runs

    return runs.section(pipelines, workings, 0, baseline, across.renamed, lines.texts, lines.ops)


def _pipeline(
    dump: Dump,
    name: str,
    lines: LineTable,
    step: Callable[[], None],
    parsed: dict[bytes, _Read],
    texts: list[_Working],
    diffs: dict,
) -> Pipeline:
    record = format_of(dump)
    with PieceReader(record.language, partial(_facts, record)) as pieces:  # its workers serve every text
        parser = IncrementalParser(record.language) if record.language.lines is None else None
        reader = _TextReader(record, parser, pieces, lines)
        text_of: dict[bytes, int] = {}  # digest of a text -> its index: identical snapshots are handled once
        language = record.language.name.encode() + b"\0"
        names = _Names(record.language.renumbers, lines)
        snapshot_text: list[int] = []  # snapshot index -> text index
        passes: list[Pass] = []
        finished = 0  # the texts before this index are read to the end

        def text_index(text: str) -> int:
            # Keyed by language too: the same bytes in two languages have two structures. SHA-256: CPUs hash it
            # in hardware (a 3.6 MB snapshot: 2.5 ms, BLAKE2b 13-18 ms).
            hashed = hashlib.sha256(language)
            hashed.update(text.encode("utf-8", errors="surrogatepass"))
            digest = hashed.digest()
            index = text_of.get(digest)
            if index is None:
                index = text_of[digest] = len(texts)
                if digest not in parsed:  # another pipeline (the other run) may have read this very text
                    parsed[digest] = reader.start(text)
                texts.append(_Working(parsed[digest], digest))
            return index

        # Read one text at a time (only distinct texts' line ids stay in memory), the next one started before
        # this pass is diffed: its pieces are read in the workers meanwhile.
        for snapshot, after in zip(dump.snapshots, _one_ahead(text_index(s.text) for s in dump.snapshots)):
            if not snapshot.is_input:
                before = _before(snapshot, snapshot_text, text_index)
                texts[before].root = texts[before].root or texts[before].produced_by is None
                diff, renamed, ops = None, (), ()
                if before != after:
                    old, new = texts[before], texts[after]
                    finished = _finish_owners(texts, max(before, after), finished)
                    if (old.digest, new.digest) not in diffs:  # the other run may have made this very change
                        old_structure, new_structure = old.structure, new.structure  # new's parse diffed them
                        found = _diff(
                            compare.diff_pass(
                                old.ids,
                                old_structure,
                                new.ids,
                                new_structure,
                                memo=reader.parser.diffs if reader.parser else None,
                            )
                        )
                        counted = opcounts.deltas(
                            [p.segments for p in found.pieces], old.ids, found.inserted_ids, lines.ops
                        )
                        diffs[old.digest, new.digest] = found, names.renamed(old, new, found), counted
                    if new.produced_by is None and not new.root and after != 0:
                        new.produced_by = len(passes)
                    diff, renamed, ops = diffs[old.digest, new.digest]
                passes.append(
                    replace(
                        _pass(snapshot, before, after, diff, record),
                        renamed=renamed,
                        before_file=_before_file(dump, snapshot),
                        ops=ops,
                    )
                )
            snapshot_text.append(after)
            step()
        for text in texts:  # also those no pass diff needed: their lines' marks count below
            text.read.finish()
        known = record.level
        level = lines.level(texts[snapshot_text[-1]].ids, known.of) if known else None
        implicit, types = lines.implicit([text.ids for text in texts], known.implicit(level) if known else 0)
        return Pipeline(
            name=name,
            format=dump.format,
            title=dump.title,
            input=Input(dump.input_file, dump.snapshots[0].label, dump.snapshots[0].name),
            level=level,
            level_title=known.title(level) if known and level else "",
            advice=known.advice(level) if known and level else "",
            implicit=implicit,
            implicit_types=types,
            texts=tuple(_freeze(text, index, passes) for index, text in enumerate(texts)),
            passes=tuple(passes),
            notes=dump.notes,
            renumbering=record.language.renumbers,
            pipeline_map=pipeline_map.build(
                [text.structure.regions for text in texts], [len(text.ids) for text in texts], snapshot_text[0], passes
            ),
            labels=_labels(record.language.label, texts),
            filters=filters.offered(record.language.name, lines.texts),
        )


def _finish_owners(texts: list[_Working], stop: int, finished: int) -> int:
    """Reads every text before `stop` to the end, from `finished` on: a line's facts (its ops, its names) come
    from the first text it was seen in, and a pass may diff texts whose lines were first seen in a text started
    before them but not yet read, the dump after the pass (started ahead) when the pass's own before text is
    made later (an MLIR local dump's base). Texts in order are read in order; this only reads the one ahead early."""
    for text in texts[finished:stop]:
        text.read.finish()
    return max(finished, stop)


def _labels(label: Callable[[str], str | None] | None, texts: list[_Working]) -> tuple[tuple[str, str], ...]:
    """(key, what users read) of the regions whose key is not their name as users read it, by key."""
    if label is None:
        return ()
    keys = sorted({region.key for text in texts for region in text.structure.regions})
    return tuple((key, name) for key in keys if (name := label(key)) and name != key)


def _one_ahead(items: Iterable[T]) -> Iterator[T]:
    """The items in order, each given once the next one has been made."""
    held: deque[T] = deque()
    for item in items:
        held.append(item)
        if len(held) > 1:
            yield held.popleft()
    yield from held


class _Names:
    """The renamed line pairs of a diff of two texts, for a language with value names (else none).

    The names of each line were read once, from the tree the text was parsed into (_TextReader), into the
    report's table of lines: any two texts of the report can be paired, also from two pipelines (two runs).
    With `remember`, each piece's pairs are kept by what decides them (its lines' ids and its segments'
    shape), relative to where it starts: two runs compared row by row meet the same pieces again; and
    equal pairs are one object (two 4,821-file runs held 2.5 million pairs, 280 MB as separate tuples).
    """

    def __init__(self, enabled: bool, lines: LineTable, remember: bool = False):
        self.enabled = enabled
        self.lines = lines
        self.memo: dict[tuple, list[tuple[int, int]]] | None = {} if remember else None
        self.pairs: dict[tuple[int, int], tuple[int, int]] = {}

    def masked(self, text: _Working) -> renumber.Lines:
        """The masked lines of a text, looked up as rows are asked for: a diff's pieces ask for a few rows of a
        long text. A line without names is its own masked text: its key is its id, apart from the others'."""
        masked = self.lines.masked
        return renumber.Lines(
            _ByRow(text.ids, lambda i: masked[i] if masked[i] >= 0 else -1 - i),
            _ByRow(text.ids, self.lines.names.__getitem__),
        )

    def renamed(self, old: _Working, new: _Working, diff) -> tuple[tuple[int, int], ...]:
        """Pairs of the diff (a Diff or a compare.PassDiff) of old against new."""
        if not self.enabled:
            return ()
        pieces = [piece for piece in diff.pieces if piece.inserted and piece.deleted]
        if not pieces:
            return ()
        found: list[tuple[int, int]] = []
        for piece in pieces:
            key, b0, a0 = _piece_key(piece.segments, old.ids, new.ids) if self.memo is not None else ((), 0, 0)
            pairs = self.memo.get(key) if self.memo is not None else None
            if pairs is None:
                pairs = renumber.in_pieces(self.masked(old), self.masked(new), [piece.segments])
                pairs = [(b - b0, a - a0) for b, a in pairs]
                if self.memo is not None:
                    self.memo[key] = pairs
            found += [(b + b0, a + a0) for b, a in pairs]
        found.sort(key=lambda pair: pair[1])
        return tuple(map(self.pairs.setdefault, found, found)) if self.memo is not None else tuple(found)


class _ByRow(Sequence[T]):
    """A text's rows seen through a table kept per line id."""

    def __init__(self, ids: list[int], look: Callable[[int], T]):
        self.ids, self.look = ids, look

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, row):
        if isinstance(row, slice):
            return list(map(self.look, self.ids[row]))
        return self.look(self.ids[row])


def _piece_key(segments, old_ids: list[int], new_ids: list[int]) -> tuple[tuple, int, int]:
    """What decides a piece's renamed pairs: its segments moved to start at (0, 0) and the ids of the lines
    they cover; and where it starts (before, after)."""
    b0, a0 = segments[0][0], segments[0][1]
    shape: list[tuple[int, ...]] = []
    covered_old: list[int] = []
    covered_new: list[int] = []
    for segment in segments:
        b, a, runs = segment[0], segment[1], segment[2:]
        shape.append((b - b0, a - a0, *runs))
        covered_old += old_ids[b : b + sum(runs[0::3]) + sum(runs[1::3])]
        covered_new += new_ids[a : a + sum(runs[0::3]) + sum(runs[2::3])]
    return (tuple(shape), tuple(covered_old), tuple(covered_new)), b0, a0


def _before_file(dump: Dump, snapshot: Snapshot) -> str:
    """What a pass is diffed against, for the Before pane, when it is not the snapshot before it ("": that one)."""
    if snapshot.based_on is not None:
        return snapshot.base_name
    if snapshot.base is not None and snapshot.base != snapshot.index - 1:
        return dump.snapshots[snapshot.base].filename
    return ""


def _before(snapshot: Snapshot, snapshot_text: list[int], text_index: Callable[[str], int]) -> int:
    """The text a pass is diffed against: an explicit one, a named earlier snapshot, or the one before it."""
    if (base := snapshot.base_text) is not None:  # inflated once: it is held deflated (dump.Packed)
        return text_index(base)
    return snapshot_text[snapshot.base if snapshot.base is not None else snapshot.index - 1]


class _TextReader:
    """Starts reading the distinct texts of one pipeline: their lines interned at once, their pieces sent
    to the workers, their structure (and the facts of the lines they show first) taken when needed."""

    def __init__(self, record, parser: IncrementalParser | None, pieces: PieceReader, lines: LineTable):
        self.record, self.parser, self.pieces, self.lines = record, parser, pieces, lines
        self.shape = record.language.shape

    def start(self, text: str) -> _Read:
        split, endings = split_lines(text)
        ids, new_rows = self.lines.intern(split)
        reading = self.pieces.submit(split, ids, new_rows, partial(self.lines.store, ids))  # a big text, in pieces
        return _Read(_newlines(endings), ids, partial(self._finish, split, ids, new_rows, reading))

    def _finish(self, split: list[str], ids: list[int], new_rows, reading) -> Structure:
        if self.parser is None:  # a language read by its lines
            return self._finish_lines(split, ids, new_rows)
        deep = self.lines.deep
        rows = [] if deep.isdisjoint(ids) else list(compress(range(len(ids)), map(deep.__contains__, ids)))
        found = reading.structure() if reading is not None else None
        if found is None:  # a small text, or a piece that does not read cleanly: the whole text, parsed
            if reading is not None:
                self.lines.forget(ids, new_rows)  # one reading speaks for a text: its pieces' facts go
            tree = self.parser.parse(split, ids, rows)
            keep = partial(self.lines.store, ids)
            if tree.root_node.has_error and (again := self.pieces.after_errors(split, ids, new_rows, keep)):
                found = again.structure()  # a text with errors read in pieces (Language.pieces_for_errors)
            if found is None:
                found = self.parser.structure(tree, split)
                self._read_facts(tree, split, ids, new_rows, self.parser.offsets)
        self._settle(ids, new_rows)
        return structure.too_deep(found, split, rows)

    def _read_facts(
        self, tree: Tree, split: list[str], ids: list[int], new_rows: list[tuple[int, int]], offsets: list[int]
    ) -> None:
        """The facts of the text's new rows, read from its tree but for lines of a shape read before (LineTable.alike),
        where the tree has no syntax error (LineTable._shaped says why)."""
        if self.shape is None or tree.root_node.has_error:
            self.lines.store(ids, _facts(self.record, tree, split, new_rows, offsets))
            return
        rows, taken = self.lines.alike(ids, new_rows, self.shape)
        read = _facts(self.record, tree, split, rows, offsets)
        derived, left = self.lines.derived(ids, taken, rows, read, self.shape)
        if left:
            derived = derived.merged(_facts(self.record, tree, split, ranges(left), offsets))
        self.lines.store(ids, read.merged(derived))  # in row order, as read whole: the tables keep their order
        self.lines.shaped(ids, rows, self.shape)

    def _settle(self, ids: list[int], new_rows: list[tuple[int, int]]) -> None:
        if self.record.language.reindents:
            self.lines.settle(ids, new_rows)

    def _finish_lines(self, split: list[str], ids: list[int], new_rows: list[tuple[int, int]]) -> Structure:
        reader, shapes = self.record.language.lines, self.lines.shapes
        facts = LineFacts()
        for first, stop in new_rows:
            for row in range(first, stop):
                found, named, run = _line_facts(reader, shapes, split[row])
                if found:
                    facts.spans.append((row, found))
                if named:
                    facts.names.append((row, named))
                if run:
                    facts.ops.append((row, run))
        self.lines.store(ids, facts)
        self._settle(ids, new_rows)
        return reader.analyze(split)


def _line_facts(reader: LineReader, shapes: dict, line: str) -> tuple[tuple[int, ...], Sequence, tuple[str, ...]]:
    """A new line's highlight spans, name spans and ops: read once per shape (LineReader.shape), the ops named by
    this line's own text at their columns."""
    key = reader.shape(line)
    known = shapes.get(key)
    if known is None:
        tokens = reader.tokens(line)  # read once, for the highlighting and the names
        known = shapes[key] = (
            highlight.token_spans(line, tokens),
            tuple(reader.names(line, tokens)),
            reader.op_spans(line),
        )
    found, named, where = known
    return found, named, tuple([line[start:end] for start, end in where])


def _facts(record, tree: Tree, lines: list[str], rows: list[tuple[int, int]], offsets: list[int]) -> LineFacts:
    """What a tree tells of the lines in the row ranges (only lines seen for the first time: the cost
    follows what changed)."""
    language = record.language
    facts = LineFacts()
    extra = (
        *(record.level.queries if record.level else ()),
        *(("elide",) if language.elides else ()),
        *((opcounts.QUERY,) if language.ops else ()),
        *(("values",) if language.names_in else ()),
    )
    query = grammar.query(language.grammar, language.name, "highlights", *extra)
    # One object per distinct span list: pickle sends a worker's repeats as references, not copies.
    shapes: dict[tuple[int, ...], tuple[int, ...]] = {}
    for first, stop, captures in highlight.walk(tree, rows, query):  # one walk for highlights and marks
        facts.spans += [
            (row, shapes.setdefault(found, found))
            for row, found in highlight.spans_of(captures, lines, offsets, first, stop, language)
        ]
        if record.level:
            facts.marks += record.level.marks(captures, offsets, first, stop)
            facts.keys += record.level.keys(captures, offsets, first, stop)
        if language.elides:
            facts.elisions += highlight.elisions_of(captures, lines, offsets, first, stop)
        if language.ops:
            facts.ops += opcounts.ops_of(captures, lines, offsets, first, stop, language.one_op_a_line)
        if language.names_in:
            facts.names += language.names_in(captures, lines, offsets, first, stop)
    return facts


def _newlines(endings: list[str]) -> Newlines:
    if not endings:
        return Newlines("\n", False)
    eol, last = endings[0], endings[-1]
    # Every line ends in eol, the last one perhaps in nothing (counted at C speed)
    if eol and endings.count(eol) == len(endings) - (last == ""):
        return Newlines(eol, last == eol)
    return Newlines(eols=tuple(endings))


def _diff(found: compare.PassDiff) -> Diff:
    return Diff(
        pieces=tuple(
            Piece(p.key, p.inserted, p.deleted, tuple(map(tuple, p.segments)), p.before_key) for p in found.pieces
        ),
        inserted_ids=tuple(found.inserted_ids),
        by_region=tuple((key, ins, dels) for key, (ins, dels) in sorted(found.by_region.items())),
    )


def _pass(snapshot: Snapshot, before: int, after: int, diff: Diff | None, record: Format) -> Pass:
    warnings = snapshot.warnings or None
    return Pass(
        label=snapshot.label,
        name=snapshot.name,
        file=snapshot.filename,
        before=before,
        after=after,
        inserted=sum(p.inserted for p in diff.pieces) if diff else 0,
        deleted=sum(p.deleted for p in diff.pieces) if diff else 0,
        diff=diff,
        detail=snapshot.detail,
        header=snapshot.header,
        failed=snapshot.failed,
        printed_before=snapshot.printed_before,
        warnings=warnings,
        anchors=tuple(
            Anchor(log, min(line, _PAST_ANY_SNAPSHOT), message)
            for log, line, message in (record.anchors(warnings, snapshot.filename) if warnings else ())
        ),
        error_lines=tuple(record.errors(warnings)) if warnings else (),
    )


# A log may name any line number; the page holds numbers exactly up to 2**53, and any line past this one is
# past every snapshot alike ("not in the snapshot"), so larger numbers are stored as this one.
_PAST_ANY_SNAPSHOT = 2**31


def _freeze(text: _Working, index: int, passes: list[Pass]) -> Text:
    stored_as_ids = text.produced_by is None
    return Text(
        newlines=text.newlines,
        regions=text.structure.regions,
        untrusted=None if text.structure.trusted else text.structure.reason,
        ids=tuple(text.ids) if stored_as_ids else None,
        produced_by=text.produced_by,
    )
