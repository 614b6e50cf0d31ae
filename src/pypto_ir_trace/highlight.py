"""Syntax highlighting from grammars/<language>/highlights.scm, as spans per line."""

from __future__ import annotations

from bisect import bisect_right
from functools import cache
from operator import attrgetter

from tree_sitter import Query, QueryCursor, Tree

from . import grammar, structure
from .languages import LANGUAGES

CHUNK = 4096  # rows per query cursor: bounds the captures held at once, whatever the run's length

# A span travels as one int until its row is flattened: sorting ints is several times cheaper than
# sorting tuples, and no tuple is made per span. Bits from high to low: start column, capture order
# in the query, end column (tree-sitter columns are uint32), class.
_CLASS_BITS, _END_BITS, _ORDER_BITS = 8, 32, 8
_END_SHIFT = _CLASS_BITS
_ORDER_SHIFT = _END_SHIFT + _END_BITS
_START_SHIFT = _ORDER_SHIFT + _ORDER_BITS
_CLASS_MASK, _END_MASK = (1 << _CLASS_BITS) - 1, (1 << _END_BITS) - 1
_START_BYTE, _END_BYTE = attrgetter("start_byte"), attrgetter("end_byte")


def _query(language) -> Query:
    return grammar.query(language.grammar, language.name, "highlights")


@cache
def classes() -> tuple[str, ...]:
    """Capture names of every language's highlight query in a fixed order; a span stores its class as
    an index into this tuple (one table for the whole report, whatever languages its pipelines use)."""
    names = set()
    for language in LANGUAGES.values():
        query = _query(language)
        names.update(query.capture_name(i) for i in range(query.capture_count))
    return tuple(sorted(names))


@cache
def _tags(language) -> dict[str, int]:
    """Capture name -> its order and class, packed as in a span's int."""
    query = _query(language)
    index = {name: i for i, name in enumerate(classes())}
    assert query.capture_count <= 1 << _ORDER_BITS and len(index) <= 1 << _CLASS_BITS
    return {query.capture_name(i): i << _ORDER_SHIFT | index[query.capture_name(i)] for i in range(query.capture_count)}


def highlight(
    tree: Tree, lines: list[str], rows: list[tuple[int, int]], language, offsets: list[int] | None = None
) -> dict[int, tuple[int, ...]]:
    """Spans for the lines in each [first, stop) row range: row -> flat (gap, length, class, ...).

    `gap` counts UTF-16 code units from the end of the previous span (the viewer indexes JS strings).
    Where captures overlap, the one that starts first wins, then the capture named first in the query.
    `offsets`: where each line starts in the parsed bytes (structure.source), if the caller has them.
    """
    if offsets is None:
        offsets = structure.source(lines)[1]
    return {row: spans for first, stop, captures in walk(tree, rows, _query(language))
            for row, spans in spans_of(captures, lines, offsets, first, stop, language)}


def walk(tree: Tree, rows: list[tuple[int, int]], query: Query):
    """(first, stop, captures by name) for each run of at most CHUNK rows of the [first, stop) ranges.

    The query may hold more than the highlights (grammar.query of several files): one walk of the tree
    then serves every reader of its captures, which is most of the cost of each.
    """
    for first, stop in rows:
        for low in range(first, stop, CHUNK):
            high = min(low + CHUNK, stop)
            cursor = QueryCursor(query)
            cursor.set_point_range((low, 0), (high, 0))
            yield low, high, cursor.captures(tree.root_node)


def spans_of(captures: dict, lines: list[str], offsets: list[int], first: int, stop: int, language):
    """(row, spans) for the rows of [first, stop) that have any, from a walk's captures (other names ignored)."""
    for row, keys in enumerate(_bucketed(captures, language, offsets, first, stop), first):
        if keys:
            yield row, _flatten(lines[row], keys)


def _bucketed(captures: dict, language, offsets: list[int], first: int, stop: int) -> list[list[int]]:
    """Per row of [first, stop): its spans as ints, unsorted (columns are UTF-8 bytes)."""
    buckets: list[list[int]] = [[] for _ in range(stop - first)]
    tags = _tags(language)
    for name, nodes in captures.items():
        tag = tags.get(name)
        if tag is None:
            continue  # another reader's capture
        for start, end in zip(map(_START_BYTE, nodes), map(_END_BYTE, nodes)):
            # Searched among the chunk's lines only: a node that starts earlier gets row first - 1,
            # which is all the code below needs to know about it.
            row = bisect_right(offsets, start, first, stop + 1) - 1
            if row >= stop:
                continue
            line_start = offsets[row]
            if end < offsets[row + 1]:  # the common case, kept cheap: the node ends on its own line
                if row >= first and end > start:
                    buckets[row - first].append(
                        (start - line_start) << _START_SHIFT | (end - line_start) << _END_SHIFT | tag
                    )
                continue
            last = bisect_right(offsets, end) - 1  # the node spans lines: its share of each
            for at in range(max(row, first), min(last, stop - 1) + 1):
                begin = start - offsets[at] if at == row else 0
                finish = end - offsets[at] if at == last else offsets[at + 1] - 1 - offsets[at]
                if finish > begin:
                    buckets[at - first].append(begin << _START_SHIFT | finish << _END_SHIFT | tag)
    return buckets


def _flatten(line: str, keys: list[int]) -> tuple[int, ...]:
    """A row's spans as the model keeps them (a tuple: made where the work is, in a piece's worker)."""
    keys.sort()
    flat: list[int] = []
    covered = 0
    if line.isascii():  # the common case: byte columns are UTF-16 columns
        for key in keys:
            start = key >> _START_SHIFT
            if start >= covered:
                end = key >> _END_SHIFT & _END_MASK
                flat += (start - covered, end - start, key & _CLASS_MASK)
                covered = end
        return tuple(flat)
    to_utf16 = _utf16_columns(line)
    for key in keys:
        start = key >> _START_SHIFT
        if start >= covered:
            end = key >> _END_SHIFT & _END_MASK
            begin, finish = to_utf16(start), to_utf16(end)
            flat += (begin - to_utf16(covered), finish - begin, key & _CLASS_MASK)
            covered = end
    return tuple(flat)


def _utf16_columns(line: str):
    """Map a UTF-8 byte column of the line to a UTF-16 column."""
    table = [0]
    units = 0
    for char in line:
        units += 2 if ord(char) > 0xFFFF else 1
        table.extend([units] * len(char.encode("utf-8", errors="surrogatepass")))
    return lambda column: table[min(column, len(table) - 1)]
