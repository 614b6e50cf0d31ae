"""Big snapshots a piece at a time: memory follows the piece, not the file, and pieces use every core.

A tree-sitter tree costs about 110 bytes a node: parsed whole, a 400,000-line snapshot holds 1.7 GB
while it is read. From PIECES_FROM lines on, the language cuts the text into pieces that start at a
statement (Language.cuts). Each piece is parsed alone, after the rows it needs before it (its class
header); the caller's `facts` reads what it needs from the piece's tree (rows are given back in the
whole text's numbering), and the tree is dropped.

A piece is kept only when its tree has no syntax error and its regions lie inside it (a context that
is not a class header would put a region in the context rows); else the caller parses the text whole.
On such pieces, regions, highlights and marks are those of the whole parse (tested on the last
snapshot of every real dump, cut small). Pieces are remembered by their lines: the next snapshot
parses only the pieces its pass changed. Many new pieces go to forked worker processes, one per core:
py-tree-sitter holds the GIL while it parses and queries, so threads would not help.
"""

from __future__ import annotations

import gc
import hashlib
import os
import signal
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from multiprocessing import get_context
from typing import Any

from tree_sitter import Parser, Tree

from . import structure
from .structure import Region, Structure

PIECES_FROM = 50_000  # lines; below, a whole tree is cheap and the incremental parser re-uses it
PIECE_LINES = 2_048  # the least lines in a piece (but the last)
WORKERS_FROM = 4  # pieces to parse; fewer are parsed in this process (a fork costs more than they do)

# (tree, lines, [first, stop) row ranges, line offsets) -> what the caller keeps of those rows, as lists
# of (row, value) pairs
Facts = Callable[[Tree, list[str], list[tuple[int, int]], list[int]], tuple[list[tuple[int, Any]], ...]]
Keep = Callable[[tuple[list[tuple[int, Any]], ...]], None]  # takes the facts of one piece


class PieceReader:
    def __init__(self, language, facts: Facts, workers: int | None = None):
        self._language = language
        self._facts = facts
        self._workers = _cores() if workers is None else workers
        self._known: dict[bytes, tuple[Region, ...]] = {}  # a piece's lines and context -> its regions, row 0 first

    def read(self, lines: list[str], ids: list[int], new_rows: list[tuple[int, int]], keep: Keep) -> Structure | None:
        """The text's structure, read piece by piece; None when the text is small, the language has no
        cuts, or a piece does not parse cleanly: then parse it whole. `keep` receives the facts of each
        new piece as it arrives, while the workers read the next ones (a refused text may have handed
        over some: the whole parse gives the same facts for those rows)."""
        cuts = self._language.cuts
        if cuts is None or len(lines) < PIECES_FROM:
            return None
        pieces = cuts(lines, PIECE_LINES)
        keys = [_key(ids, first, stop, context) for first, stop, context in pieces]
        todo = [i for i, key in enumerate(keys) if key not in self._known]

        def arrived(index: int, found: tuple[tuple[Region, ...], Any]) -> None:
            regions, facts = found
            keep(facts)
            self._known[keys[todo[index]]] = regions

        if todo and not _run(_Job(self._language, self._facts, lines, new_rows, [pieces[i] for i in todo]),
                             self._workers, arrived):
            return None
        regions = [
            replace(r, start=r.start + first, end=r.end + first, def_line=r.def_line + first)
            for key, (first, _, _) in zip(keys, pieces)
            for r in self._known[key]
        ]
        return Structure(tuple(_rekeyed(regions)))


class _Job:
    """One text's pieces to parse: what a worker process needs, inherited when it is forked."""

    def __init__(self, language, facts: Facts, lines: list[str], new_rows, pieces):
        self.language, self.facts, self.lines, self.pieces = language, facts, lines, pieces
        self.new_rows = new_rows
        self.new_stops = [stop for _, stop in new_rows]  # sorted, as the ranges are: a piece finds its own by bisection
        self.parser: Parser | None = None

    def piece(self, index: int) -> tuple[tuple[Region, ...], Any] | None:
        """The piece's regions (row 0 at its first line) and the facts of its new rows; None if unclean.

        The piece is parsed as its own small text, context lines first: tree-sitter reads them as it
        would read them in the whole text, and only the piece's bytes are ever made.
        """
        first, stop, context = self.pieces[index]
        lines = self.lines[context.start : context.stop] + self.lines[first:stop]
        shift = first - len(context)  # a row of the small text + shift = its row in the whole text
        source, offsets = structure.source(lines)
        if self.parser is None:
            self.parser = Parser(self.language.grammar)
        tree = self.parser.parse(source)
        if tree.root_node.has_error:
            return None
        found = self.language.analyze(tree, lines)
        if not found.trusted or any(r.error or r.start < len(context) for r in found.regions):
            return None
        rows = [(max(a, first) - shift, min(b, stop) - shift) for a, b in self._new_rows_in(first, stop)]
        facts = self.facts(tree, lines, rows, offsets)
        relative = tuple(replace(r, start=r.start - len(context), end=r.end - len(context),
                                 def_line=r.def_line - len(context)) for r in found.regions)
        return relative, tuple([(row + shift, value) for row, value in part] for part in facts)


    def _new_rows_in(self, first: int, stop: int) -> list[tuple[int, int]]:
        """The new row ranges that overlap [first, stop) (a text may have thousands: a scan per piece adds up)."""
        low = bisect_right(self.new_stops, first)
        high = bisect_left(self.new_stops, stop, low)  # the range ending at or past stop is the last one in it
        return [r for r in self.new_rows[low : high + 1] if r[0] < stop]


_job: _Job | None = None  # the job a forked worker inherited


def _in_worker(index: int):
    assert _job is not None
    return _job.piece(index)


def _worker_starts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's (one line, exit 130), not a traceback here
    # The garbage collector would walk every object inherited from the parent, copying each page it
    # touches: they are never garbage here, so it leaves them alone.
    gc.freeze()


def _run(job: _Job, workers: int, arrived: Callable[[int, Any], None]) -> bool:
    """Hands every piece of the job to `arrived`, in order, as it is read; False (and no more) at the first
    piece that is not clean."""
    count = len(job.pieces)
    if count >= WORKERS_FROM and workers > 1:
        try:
            return _in_workers(job, min(workers, count), arrived)
        except (BrokenProcessPool, OSError, ValueError):  # a worker died, or no fork here: read them here
            pass
    for index in range(count):
        found = job.piece(index)
        if found is None:
            return False
        arrived(index, found)
    return True


def _in_workers(job: _Job, workers: int, arrived: Callable[[int, Any], None]) -> bool:
    global _job
    _job = job  # set before the workers fork: they inherit it instead of receiving the text
    try:
        pool = ProcessPoolExecutor(workers, mp_context=get_context("fork"), initializer=_worker_starts)
        try:
            for index, found in enumerate(pool.map(_in_worker, range(len(job.pieces)))):
                if found is None:
                    return False
                arrived(index, found)
            return True
        finally:
            pool.shutdown(cancel_futures=True)  # after Ctrl-C or a refused piece, only the pieces being read finish
    finally:
        _job = None


def _cores() -> int:
    """The cores this process may run on (a container's CPU set, not the machine's)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _key(ids: list[int], first: int, stop: int, context: range) -> bytes:
    """The piece's lines and its context's, as a digest: equal pieces read alike wherever they sit."""
    digest = hashlib.blake2b(array("q", ids[context.start:context.stop]).tobytes(), digest_size=20)
    digest.update(b"|")
    digest.update(array("q", ids[first:stop]).tobytes())
    return digest.digest()


def _rekeyed(regions: list[Region]) -> list[Region]:
    """Regions numbered across the whole text: a name repeated in two pieces gets its "#2" here."""
    found = [(r.start, r.end, structure.name_of(r.key), r.kind, r.def_line) for r in regions]
    return [replace(r, key=k.key) for r, k in zip(regions, structure.keyed(found))]
