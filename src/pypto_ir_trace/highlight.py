"""Syntax highlighting from grammars/<language>/highlights.scm, as spans per line."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cache
from operator import attrgetter

from tree_sitter import Query, QueryCursor, Tree

from . import grammar
from .languages import LANGUAGES

CHUNK = 4096  # rows per query cursor: bounds the captures held at once, whatever the run's length

# A capture travels as one int until its row is flattened: sorting ints is several times cheaper than
# sorting tuples, and no tuple is made per capture. Bits from high to low: start byte in the parsed
# text, capture order in the query, length in bytes (tree-sitter lengths are uint32). Sorted, a chunk's
# captures come in the order the viewer paints them: by start, then the capture written first.
_LENGTH_BITS, _ORDER_BITS = 32, 8
_START_SHIFT = _LENGTH_BITS + _ORDER_BITS
_LENGTH_MASK, _ORDER_MASK = (1 << _LENGTH_BITS) - 1, (1 << _ORDER_BITS) - 1
_START_BYTE, _END_BYTE = attrgetter("start_byte"), attrgetter("end_byte")


def _names(language) -> tuple[str, ...]:
    """The capture names of the language's highlight query, in its capture order."""
    return grammar.capture_names(language.name, "highlights")


@cache
def classes() -> tuple[str, ...]:
    """Capture names of every language's highlight query in a fixed order; a span stores its class as
    an index into this tuple (one table for the whole report, whatever languages its pipelines use)."""
    names: set[str] = set()
    for language in LANGUAGES.values():
        if language.lines is not None:  # read by a tokenizer
            names.update(language.lines.classes())
            continue
        names.update(_names(language))
    return tuple(sorted(names))


@cache
def _class_index() -> dict[str, int]:
    return {name: i for i, name in enumerate(classes())}


def token_spans(line: str, tokens) -> tuple[int, ...]:
    """A line's spans, as the model keeps them, from its (start, end, class) tokens in characters, in order."""
    index = _class_index()
    units = None if line.isascii() else _utf16_of_chars(line)  # ASCII: characters are UTF-16 units
    flat: list[int] = []
    covered = 0
    for start, end, name in tokens:
        if units is not None:
            start, end = units[start], units[end]
        flat += (start - covered, end - start, index[name])
        covered = end
    return tuple(flat)


def _utf16_of_chars(line: str) -> list[int]:
    """Character column -> UTF-16 column, for every column of the line and its end."""
    table = [0]
    for char in line:
        table.append(table[-1] + (2 if ord(char) > 0xFFFF else 1))
    return table


@cache
def _orders(language) -> tuple[dict[str, int], tuple[int, ...]]:
    """Capture name -> its order, placed as in a capture's int; and each order's class (index in classes())."""
    index = {name: i for i, name in enumerate(classes())}
    names = _names(language)
    assert len(names) <= 1 << _ORDER_BITS
    return {name: i << _LENGTH_BITS for i, name in enumerate(names)}, tuple(index[name] for name in names)


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
    orders, order_class = _orders(language)
    keys = []
    for name, nodes in captures.items():
        order = orders.get(name)
        if order is not None:  # else another reader's capture
            keys += [
                start << _START_SHIFT | order | end - start
                for start, end in zip(map(_START_BYTE, nodes), map(_END_BYTE, nodes))
            ]
    keys.sort()
    later: dict[int, list[int]] = {}  # row -> the parts of nodes that start on an earlier row
    at = bisect_left(keys, offsets[first] << _START_SHIFT)
    for key in keys[:at]:  # nodes that start before the chunk: only their parts in it count
        _spill(key, first, offsets, stop, later)
    for row in range(first, stop):
        end = bisect_left(keys, offsets[row + 1] << _START_SHIFT, at)
        row_keys = keys[at:end]
        at = end
        if row in later:
            row_keys = sorted(row_keys + later.pop(row))
        if row_keys:
            spans = _flatten(lines[row], row_keys, row, offsets, stop, later, order_class)
            if spans:
                yield row, spans


def _flatten(line: str, keys: list[int], row: int, offsets: list[int], stop: int, later: dict, order_class) -> tuple:
    """A row's spans from its sorted captures, as the model keeps them (a tuple: made where the work
    is, in a piece's worker). A node that runs past the line's end leaves its next lines' parts in `later`."""
    line_start = offsets[row]
    length = offsets[row + 1] - 1 - line_start  # in bytes, without the newline
    flat: list[int] = []  # gap, length, class: byte columns here
    covered = 0
    for key in keys:
        start = (key >> _START_SHIFT) - line_start
        end = start + (key & _LENGTH_MASK)
        if end > length:
            _spill(key, row + 1, offsets, stop, later)
            end = length
        if start >= covered and end > start:
            flat += (start - covered, end - start, order_class[key >> _LENGTH_BITS & _ORDER_MASK])
            covered = end
    return tuple(flat) if line.isascii() else _in_utf16(line, flat)  # ASCII: bytes are UTF-16 units


ELIDE_MIN_CHARS = 24  # shorter sub-expressions are not worth a "…": it would save little and hide a word


def elisions_of(captures: dict, lines: list[str], offsets: list[int], first: int, stop: int):
    """(row, (step, length, step, length, ...)) for the rows of [first, stop) with sub-expressions the viewer may
    elide (grammars/<language>/elide.scm's @elide): on one line and at least ELIDE_MIN_CHARS long, sorted by
    start, an enclosing one before those inside it (the viewer elides the outermost that no change touches);
    each start in UTF-16 units from the one before."""
    found: dict[int, list[tuple[int, int]]] = {}
    for node in captures.get("elide", ()):
        start, end = node.start_byte, node.end_byte
        row = bisect_right(offsets, start) - 1
        if first <= row < stop and end < offsets[row + 1] and end - start >= ELIDE_MIN_CHARS:
            found.setdefault(row, []).append((start - offsets[row], end - offsets[row]))
    for row, ranges in sorted(found.items()):
        line = lines[row]
        columns = _utf16_columns(line) if not line.isascii() else None  # ASCII: bytes are UTF-16 units
        flat: list[int] = []
        previous = 0
        for start, end in sorted(set(ranges), key=lambda r: (r[0], -r[1])):
            if columns is not None:
                start, end = columns[start], columns[end]
            if end - start >= ELIDE_MIN_CHARS:  # counted in bytes above, in characters here
                flat += (start - previous, end - start)
                previous = start
        if flat:
            yield row, tuple(flat)


def _utf16_columns(line: str) -> list[int]:
    """UTF-8 byte column -> UTF-16 column, for every byte column of the line and its end."""
    table = [0]
    units = 0
    for char in line:
        units += 2 if ord(char) > 0xFFFF else 1
        table.extend([units] * len(char.encode("utf-8", errors="surrogatepass")))
    return table


def _spill(key: int, row: int, offsets: list[int], stop: int, later: dict) -> None:
    """The parts of a node on the rows from `row` that it reaches (each row's part starts at column 0)."""
    start = key >> _START_SHIFT
    end = start + (key & _LENGTH_MASK)
    last = min(bisect_right(offsets, end) - 1, stop - 1)
    order = key & (_ORDER_MASK << _LENGTH_BITS)
    for at in range(row, last + 1):
        finish = min(end, offsets[at + 1] - 1) - offsets[at]
        if finish > 0:
            later.setdefault(at, []).append(offsets[at] << _START_SHIFT | order | finish)


def _in_utf16(line: str, flat: list[int]) -> tuple[int, ...]:
    """Spans with byte columns as spans with UTF-16 columns (the viewer indexes JS strings)."""
    table = _utf16_columns(line)
    converted: list[int] = []
    covered = byte = 0  # the previous span's end, in UTF-16 units and in bytes
    for i in range(0, len(flat), 3):
        start = byte + flat[i]
        byte = start + flat[i + 1]
        begin, finish = table[min(start, len(table) - 1)], table[min(byte, len(table) - 1)]
        converted += (begin - covered, finish - begin, flat[i + 2])
        covered = finish
    return tuple(converted)
