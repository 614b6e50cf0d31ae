"""Big snapshots a piece at a time: memory follows the piece, not the file, and pieces use every core.

A tree-sitter tree costs about 110 bytes a node: parsed whole, a 400,000-line snapshot holds 1.7 GB
while it is read. From PIECES_FROM lines on (the language's own figures: Language.pieces), the language cuts
the text into pieces that start at a statement (Language.cuts). Each piece is parsed alone, after the rows it
needs before it (its class header; the lines opening the MLIR ops around it) and before the rows that close
what those open; the caller's `facts` reads the LineFacts of the piece's new rows from its tree (given back in
the whole text's numbering), and the tree is dropped.

A piece is kept only when its regions lie inside it (a context that is not a class header would put a region
in the context rows) and its tree has no syntax error; else the caller parses the text whole. On such pieces,
regions, highlights and marks are those of the whole parse (tested on the last snapshot of every real dump,
cut small). A language whose analysis marks what syntax errors touch reads pieces with errors too
(Language.pieces_for_errors: MLIR, where custom assembly gives errors in most of IREE's dumps): a tree with
errors cannot be re-used by the next parse (incremental.py), so such texts are read in pieces once one is
met, a clean text's pieces reading as it does, and an error stays in the op it is in. Pieces are remembered
by their lines: the next snapshot parses only the pieces its pass changed. New pieces go to worker processes,
one per core, forked once by the first text with several new pieces and kept for the next texts: the caller
sends a text's pieces and prepares the next text while they are read. py-tree-sitter holds the GIL while it
parses and queries, so threads would not help.
"""

from __future__ import annotations

import gc
import hashlib
import os
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tree_sitter import Parser, Tree

from . import structure
from .linefacts import LineFacts
from .structure import Cut, Region, Structure
from .workers import BrokenPool, end_now, process_pool, signals_held, worker_signals

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

PIECES_FROM = 50_000  # lines; below, a whole tree is cheap and the incremental parser re-uses it
PIECE_LINES = 2_048  # the least lines in a piece (but the last)
WORKERS_FROM = 4  # new pieces that start the worker processes; fewer are read here (a fork costs more)
SENT_FROM = 256  # lines; a smaller piece is read here when it is needed (a worker's round trip costs more)

# (tree, lines, [first, stop) row ranges, line offsets) -> the facts of those rows
Facts = Callable[[Tree, list[str], list[tuple[int, int]], list[int]], LineFacts]
Keep = Callable[[LineFacts], None]  # takes the facts of one piece
Found = tuple[tuple[Region, ...], LineFacts]  # a clean piece's regions and facts


class PieceReader:
    """Reads big texts a piece at a time; new pieces go to worker processes that live as long as the
    reader (a `with` block), so one text's pieces are read while the caller prepares the next text."""

    def __init__(self, language, facts: Facts, workers: int | None = None):
        self._here = _PieceParser(language, facts)
        self._workers = _cores() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None
        # a piece's lines and context -> its regions, row 0 first (None: it does not read cleanly)
        self._known: dict[bytes, tuple[Region, ...] | None] = {}
        self._sent: dict[bytes, _Sent] = {}  # pieces sent to be read, not yet in
        self._errors_seen = False  # a text had syntax errors (Language.pieces_for_errors)

    def __enter__(self) -> PieceReader:
        return self

    def __exit__(self, failed, *_) -> None:
        if self._pool is not None:
            if failed:  # Ctrl-C, SIGTERM, an error: the pieces being read are not waited for
                end_now(self._pool)
            else:
                self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def submit(self, lines: list[str], ids: list[int], new_rows: list[tuple[int, int]], keep: Keep) -> Reading | None:
        """Sends the text's new pieces to be read, or None when the text is small, the language has no cuts, or
        it reads only texts with syntax errors in pieces and none had any yet: then parse it whole. `keep`
        receives the facts of the `new_rows` ([first, stop) ranges) of each new piece when it comes in, whichever
        text asks for it first."""
        language = self._here.language
        pieces_from, piece_lines = language.pieces or (PIECES_FROM, PIECE_LINES)
        if language.cuts is None or len(lines) < pieces_from or (language.pieces_for_errors and not self._errors_seen):
            return None
        pieces = language.cuts(lines, piece_lines)
        keys = [_key(ids, cut) for cut in pieces]
        new = {key: piece for key, piece in zip(keys, pieces) if key not in self._known and key not in self._sent}
        pool = self._pool_for(sum(stop - first >= SENT_FROM for first, stop, *_ in new.values()))
        stops = [stop for _, stop in new_rows]  # sorted, as the ranges are: a piece finds its own by bisection
        for key, (first, stop, context, closing) in new.items():
            shift = first - len(context)  # a row of the piece's own text + shift = its row in the whole text
            rows = [
                (max(a, first) - shift, min(b, stop) - shift) for a, b in _overlapping(new_rows, stops, first, stop)
            ]
            text = [lines[row] for row in context] + lines[first:stop] + [lines[row] for row in closing]
            task = _Task(text, len(context), stop - first, shift, rows)
            self._sent[key] = _Sent(task, _send(pool if stop - first >= SENT_FROM else None, task), keep)
        return Reading(self, pieces, keys)

    def after_errors(
        self, lines: list[str], ids: list[int], new_rows: list[tuple[int, int]], keep: Keep
    ) -> Reading | None:
        """A text whose whole parse has syntax errors, read in pieces where the language reads such texts so (else
        None); from then on, big texts are sent in pieces as they come (`submit`): a language's texts tend to keep
        their errors from pass to pass (IREE's custom assembly), and a clean text's pieces read as it does."""
        if not self._here.language.pieces_for_errors:
            return None
        self._errors_seen = True
        return self.submit(lines, ids, new_rows, keep)

    def _pool_for(self, pieces: int) -> ProcessPoolExecutor | None:
        """The workers, started by the first text with enough new pieces; None: read here."""
        if self._pool is None and pieces >= WORKERS_FROM and self._workers > 1:
            try:
                self._pool = process_pool(self._workers, "fork", initializer=_worker_starts, initargs=(self._here,))
            except (OSError, ValueError):  # no fork here
                return None
        return self._pool

    def _take(self, key: bytes) -> None:
        """Waits for a piece that was sent, hands its facts over and remembers its regions."""
        sent = self._sent.pop(key, None)
        if sent is None:  # known already
            return
        found = None
        if sent.future is not None:
            try:
                found = sent.future.result()
            except BrokenPool:  # a worker died: this piece and the next ones are read here
                if self._pool is not None:
                    self._pool.shutdown(wait=False)
                self._pool = sent.future = None
        if sent.future is None:
            found = self._here.read(sent.task)
        self._known[key] = found[0] if found is not None else None
        if found is not None:
            sent.keep(found[1])

    def _structure(self, pieces: list[Cut], keys: list[bytes]) -> Structure | None:
        for key in keys:
            self._take(key)
        if any(self._known[key] is None for key in keys):
            return None
        regions = [
            r.moved(first)
            for key, (first, *_) in zip(keys, pieces)
            for r in self._known[key] or ()  # none is None: checked above
        ]
        return Structure(tuple(_rekeyed(regions)))


class Reading:
    """One text's pieces as they are read: the caller takes its structure when it needs it."""

    def __init__(self, reader: PieceReader, pieces: list[Cut], keys: list[bytes]):
        self._reader, self._pieces, self._keys = reader, pieces, keys

    def structure(self) -> Structure | None:
        """The text's structure once every piece is in, or None when one does not read cleanly: then parse
        the text whole (the facts of its clean pieces have been handed over: the caller replaces them)."""
        return self._reader._structure(self._pieces, self._keys)


@dataclass
class _Task:
    """A piece to read: its lines after its context's (and before its closing rows), and the rows whose facts are
    wanted."""

    lines: list[str]
    context: int  # rows of context before the piece
    rows_in_piece: int  # the piece's own rows, after the context
    shift: int  # a row of these lines + shift = its row in the whole text
    rows: list[tuple[int, int]]  # [first, stop) ranges, in these lines' numbering


@dataclass
class _Sent:
    task: _Task
    future: Future | None  # None: read here when it is needed
    keep: Keep


class _PieceParser:
    """What reads a piece, here or in a worker process: the language, the caller's facts, a parser."""

    def __init__(self, language, facts: Facts):
        self.language, self.facts = language, facts
        self.parser: Parser | None = None

    def read(self, task: _Task) -> Found | None:
        """The piece's regions (row 0 at its first line) and the facts of its wanted rows; None if unclean.

        The piece is parsed as its own small text, context lines first: tree-sitter reads them as it
        would read them in the whole text, and only the piece's bytes are ever made.
        """
        source, offsets = structure.source(task.lines)
        if self.parser is None:
            self.parser = Parser(self.language.grammar)
        tree = self.parser.parse(source)
        errors = self.language.pieces_for_errors
        if tree.root_node.has_error and not errors:
            return None
        found = self.language.analyze(tree, task.lines)
        past = task.context + task.rows_in_piece
        if not found.trusted or any(
            (r.error and not errors) or r.start < task.context or r.end > past for r in found.regions
        ):
            return None
        facts = self.facts(tree, task.lines, task.rows, offsets)
        relative = tuple(r.moved(-task.context) for r in found.regions)
        return relative, facts.shifted(task.shift)


def _overlapping(ranges: list[tuple[int, int]], stops: list[int], first: int, stop: int) -> list[tuple[int, int]]:
    """The sorted, disjoint ranges that overlap [first, stop) (a text may have thousands: no scan per piece)."""
    low = bisect_right(stops, first)
    high = bisect_left(stops, stop, low)  # the range ending at or past stop is the last one in it
    return [r for r in ranges[low : high + 1] if r[0] < stop]


def _send(pool: ProcessPoolExecutor | None, task: _Task) -> Future | None:
    if pool is None:
        return None
    try:
        with signals_held():  # the workers are forked in the first submit: a fork's hooks would drop a signal
            return pool.submit(_in_worker, task)
    except (BrokenPool, RuntimeError):  # a worker died earlier: read it here
        return None


_worker: _PieceParser | None = None  # a worker process's reader, inherited when it was forked


def _worker_starts(reader: _PieceParser) -> None:
    global _worker
    _worker = reader
    worker_signals()  # Ctrl-C and SIGTERM are the parent's to handle (one line, exit 130 or 143)
    # The garbage collector would walk every object inherited from the parent, copying each page it
    # touches: they are never garbage here, so it leaves them alone.
    gc.freeze()


def _in_worker(task: _Task) -> Found | None:
    assert _worker is not None
    return _worker.read(task)


def _cores() -> int:
    """The cores this process may run on (a container's CPU set, not the machine's)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _key(ids: list[int], cut: Cut) -> bytes:
    """The piece's lines and its context's and closing rows', as a digest: equal pieces read alike wherever they
    sit."""
    digest = hashlib.blake2b(array("q", [ids[row] for row in cut.context]).tobytes(), digest_size=20)
    digest.update(b"|")
    digest.update(array("q", ids[cut.first : cut.stop]).tobytes())
    digest.update(b"|")
    digest.update(array("q", [ids[row] for row in cut.closing]).tobytes())
    return digest.digest()


def _rekeyed(regions: list[Region]) -> list[Region]:
    """Regions numbered across the whole text: a name repeated in two pieces gets its "#2" here."""
    found = [(r.start, r.end, structure.name_of(r.key), r.kind, r.def_line) for r in regions]
    return [replace(r, key=k.key) for r, k in zip(regions, structure.keyed(found))]
