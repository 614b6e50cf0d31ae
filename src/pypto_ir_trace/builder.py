"""Build the report model from dumps: read each snapshot once, parse each distinct text once, diff each pass."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace

from . import __version__, compare, highlight, linediff, renumber, runs
from .dump import Dump, Snapshot, split_lines
from .formats import format_of
from .incremental import IncrementalParser
from .model import Anchor, Diff, Newlines, Pass, Piece, Pipeline, Report, Text
from .structure import Structure

Progress = Callable[[int, int], None]  # (snapshots done, snapshots in all)


class _Lines:
    """The report's table of distinct lines and their highlight spans, shared by every pipeline."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.texts: list[str] = []  # line id -> its text
        self.spans: list[tuple[int, ...]] = []  # stored as the model keeps them: no copy at the end
        self.names: list[list[tuple[int, int]]] = []  # line id -> its value names (languages that have them)
        self.implicit: set[int] = set()  # ids of lines naming a type CONCISE prints without its layout (_flag_implicit)

    def intern(self, lines: list[str]) -> tuple[list[int], list[tuple[int, int]]]:
        """Line ids, and the [first, stop) row ranges of lines never seen before (only those get highlighted)."""
        table = self.ids
        ids = list(map(table.get, lines))
        new_rows: list[tuple[int, int]] = []
        for row in (row for row, line_id in enumerate(ids) if line_id is None):
            line_id = table.get(lines[row])
            if line_id is None:
                line_id = table[lines[row]] = len(table)
                self.texts.append(lines[row])
                self.spans.append(())
                self.names.append([])
                if new_rows and new_rows[-1][1] == row:  # measured: merging across gaps costs more than it saves
                    new_rows[-1] = (new_rows[-1][0], row + 1)
                else:
                    new_rows.append((row, row + 1))
            ids[row] = line_id
        return ids, new_rows


class _Working:
    """A distinct text while its pipeline is built; frozen into model.Text at the end."""

    def __init__(self, newlines: Newlines, ids: list[int], structure: Structure, digest: bytes = b""):
        self.newlines = newlines
        self.ids = ids
        self.structure = structure
        self.digest = digest  # of the text: byte-identical texts, also across pipelines
        self.produced_by: int | None = None


def build(dumps: tuple[Dump, ...], context: int, progress: Progress | None = None, baseline: int | None = None) -> Report:
    """The model of one or more pipelines, each named by its dump (`name`, else its title).

    With `baseline`, dumps[:baseline] are this run and dumps[baseline:] the baseline: the report compares
    the first pipeline of each (its runs section).
    """
    lines = _Lines()
    parsed: dict[bytes, _Working] = {}  # language + digest -> a text read once for the whole report
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
        _pipeline(dump, dump.name or dump.title, lines, step, parsed, workings[i], diffs) for i, dump in enumerate(dumps)
    )
    return Report(
        title=dumps[0].title,
        generator=f"pypto-ir-trace {__version__}",
        context=context,
        limits=dict(linediff.LIMITS),
        classes=highlight.classes(),
        lines=tuple(lines.ids),
        spans=tuple(lines.spans),
        pipelines=pipelines,
        runs=runs.section(pipelines, workings, 0, baseline) if baseline is not None else None,
    )


def _pipeline(dump: Dump, name: str, lines: _Lines, step: Callable[[], None],
              parsed: dict[bytes, _Working], texts: list[_Working], diffs: dict) -> Pipeline:
    record = format_of(dump)
    parser = IncrementalParser(record.language)
    text_of: dict[bytes, int] = {}  # digest of a text -> its index: identical snapshots are handled once
    names = _Names(record.language.names_in is not None, texts, lines)
    snapshot_text: list[int] = []  # snapshot index -> text index
    passes: list[Pass] = []

    def text_index(text: str) -> int:
        # Keyed by language too: the same bytes in two languages have two structures.
        digest = hashlib.blake2b(text.encode("utf-8", errors="surrogatepass"), digest_size=20,
                                 person=record.language.name.encode()).digest()
        index = text_of.get(digest)
        if index is None:
            index = text_of[digest] = len(texts)
            if digest not in parsed:  # another pipeline (the other run) may have read this very text
                known_lines = len(lines.texts)
                parsed[digest] = _read_text(text, parser, lines, record.language, digest)
                _flag_implicit(record, parser, parsed[digest].ids, known_lines, lines)
            known = parsed[digest]
            texts.append(_Working(known.newlines, known.ids, known.structure, digest))
        return index

    for snapshot in dump.snapshots:
        after = text_index(snapshot.text)  # read one at a time: only distinct texts' line ids stay in memory
        if not snapshot.is_input:
            before = _before(snapshot, snapshot_text, text_index)
            diff, renamed = None, ()
            if before != after:
                old, new = texts[before], texts[after]
                if (old.digest, new.digest) not in diffs:  # the other run may have made this very change
                    found = _diff(compare.diff_pass(old.ids, old.structure, new.ids, new.structure))
                    diffs[old.digest, new.digest] = found, names.renamed(before, after, found)
                if new.produced_by is None and after != 0:
                    new.produced_by = len(passes)
                diff, renamed = diffs[old.digest, new.digest]
            passes.append(replace(_pass(snapshot, before, after, diff, record.anchors), renamed=renamed))
        snapshot_text.append(after)
        step()
    level = record.dump_level(parser.tree) if record.dump_level and parser.tree else None
    # Known only now that every text is read: lines were flagged as they came, kept only where the advice applies.
    implicit = set().union(*(lines.implicit.intersection(text.ids) for text in texts)) if level == "CONCISE" else ()
    return Pipeline(
        name=name,
        format=dump.format,
        title=dump.title,
        input_file=dump.input_file,
        level=level,
        implicit=tuple(sorted(implicit)),
        texts=tuple(_freeze(text, index, passes) for index, text in enumerate(texts)),
        passes=tuple(passes),
        notes=dump.notes,
        renumbering=record.language.names_in is not None,
    )


class _Names:
    """The renamed line pairs of a pass diff, for a language with value names (else none).

    The names of each line were read once, from the tree the text was parsed into (_read_text).
    """

    def __init__(self, enabled: bool, texts: list[_Working], lines: _Lines):
        self.enabled = enabled
        self.texts = texts
        self.lines = lines

    def spans(self, t: int) -> tuple[list[str], list]:
        """The lines of text t and the name spans of each."""
        ids = self.texts[t].ids
        return [self.lines.texts[i] for i in ids], [self.lines.names[i] for i in ids]

    def renamed(self, before: int, after: int, diff: Diff) -> tuple[tuple[int, int], ...]:
        if not self.enabled:
            return ()
        pieces = [piece for piece in diff.pieces if piece.inserted and piece.deleted]
        if not pieces:
            return ()
        (old, old_spans), (new, new_spans) = self.spans(before), self.spans(after)
        found: list[tuple[int, int]] = []
        for piece in pieces:
            found += renumber.in_pieces(old, new, [piece.segments], old_spans, new_spans)
        return tuple(sorted(found, key=lambda pair: pair[1]))


def _before(snapshot: Snapshot, snapshot_text: list[int], text_index: Callable[[str], int]) -> int:
    """The text a pass is diffed against: an explicit one, a named earlier snapshot, or the one before it."""
    if snapshot.base_text is not None:
        return text_index(snapshot.base_text)
    return snapshot_text[snapshot.base if snapshot.base is not None else snapshot.index - 1]


def _read_text(text: str, parser: IncrementalParser, lines: _Lines, language, digest: bytes) -> _Working:
    split, endings = split_lines(text)
    ids, new_rows = lines.intern(split)
    tree = parser.parse(split, ids)
    # Highlight only the lines seen for the first time: the cost follows what changed.
    for row, spans in highlight.spans_by_row(tree, split, new_rows, language, parser.offsets):
        if not lines.spans[ids[row]]:
            lines.spans[ids[row]] = tuple(spans)
    if language.names_in is not None:  # read from the tree at hand, once per line, like the highlights
        for row, names in enumerate(language.names_in(tree, split, new_rows)):
            if names:
                lines.names[ids[row]] = names
    return _Working(_newlines(endings), ids, language.analyze(tree, split), digest)


def _flag_implicit(record, parser: IncrementalParser, ids: list[int], known_lines: int, lines: _Lines) -> None:
    """Flag, in lines.implicit, the lines first seen in the text just parsed (ids from known_lines on) that
    name a type CONCISE prints without its layout: read from the tree at hand, once per line, like highlights."""
    if record.implicit_rows is None:
        return
    rows: list[tuple[int, int]] = []
    for row in (row for row, line_id in enumerate(ids) if line_id >= known_lines):
        if rows and rows[-1][1] == row:
            rows[-1] = (rows[-1][0], row + 1)
        else:
            rows.append((row, row + 1))
    if rows:
        lines.implicit.update(ids[row] for row in record.implicit_rows(parser.tree, rows))


def _newlines(endings: list[str]) -> Newlines:
    if not endings:
        return Newlines("\n", False)
    eol = endings[0]
    if eol and all(e == eol for e in endings[:-1]) and endings[-1] in (eol, ""):
        return Newlines(eol, endings[-1] == eol)
    return Newlines(each=tuple(endings))


def _diff(found: compare.PassDiff) -> Diff:
    return Diff(
        pieces=tuple(Piece(p.key, p.inserted, p.deleted, tuple(map(tuple, p.segments))) for p in found.pieces),
        inserted_ids=tuple(found.inserted_ids),
        by_region=tuple((key, ins, dels) for key, (ins, dels) in sorted(found.by_region.items())),
    )


def _pass(snapshot: Snapshot, before: int, after: int, diff: Diff | None, anchors) -> Pass:
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
        failed=snapshot.failed,
        warnings=warnings,
        anchors=tuple(Anchor(*found) for found in anchors(warnings, snapshot.filename)) if warnings else (),
    )


def _freeze(text: _Working, index: int, passes: list[Pass]) -> Text:
    stored_as_ids = text.produced_by is None
    return Text(
        newlines=text.newlines,
        regions=text.structure.regions,
        untrusted=None if text.structure.trusted else text.structure.reason,
        ids=tuple(text.ids) if stored_as_ids else None,
        produced_by=text.produced_by,
    )
