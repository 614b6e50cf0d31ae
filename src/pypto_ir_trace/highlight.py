"""Syntax highlighting from grammars/<language>/highlights.scm, as spans per line."""

from __future__ import annotations

from functools import cache

from tree_sitter import QueryCursor, Tree

from . import grammar


@cache
def classes() -> tuple[str, ...]:
    """Capture names in a fixed order; a span stores its class as an index into this tuple."""
    query = grammar.query("highlights")
    return tuple(sorted({query.capture_name(i) for i in range(query.capture_count)}))


def highlight(tree: Tree, lines: list[str], rows: list[tuple[int, int]]) -> dict[int, list[int]]:
    """Spans for the lines in each [first, stop) row range: row -> flat [gap, length, class, ...].

    `gap` counts UTF-16 code units from the end of the previous span (the viewer indexes JS strings).
    Where captures overlap, the one that starts first wins, then the capture named first in the query.
    """
    query = grammar.query("highlights")
    index = {name: i for i, name in enumerate(classes())}
    found: dict[int, list[tuple[int, int, int, int]]] = {}
    for first, stop in rows:
        cursor = QueryCursor(query)
        cursor.set_point_range((first, 0), (stop, 0))
        for name, nodes in cursor.captures(tree.root_node).items():
            rank = _rank(name)
            cls = index[name]
            for node in nodes:
                (r0, c0), (r1, c1) = node.start_point, node.end_point
                if r0 == r1:  # the common case, kept cheap
                    if first <= r0 < stop and c1 > c0:
                        found.setdefault(r0, []).append((c0, rank, c1, cls))
                    continue
                for row in range(max(r0, first), min(r1, stop - 1) + 1):
                    start = c0 if row == r0 else 0
                    end = c1 if row == r1 else len(lines[row].encode("utf-8", errors="surrogatepass"))
                    if end > start:
                        found.setdefault(row, []).append((start, rank, end, cls))
    return {row: _flatten(lines[row], spans) for row, spans in found.items()}


@cache
def _rank(name: str) -> int:
    query = grammar.query("highlights")
    return next(i for i in range(query.capture_count) if query.capture_name(i) == name)


def _flatten(line: str, spans: list[tuple[int, int, int, int]]) -> list[int]:
    spans.sort()
    flat: list[int] = []
    covered = 0
    if line.isascii():  # the common case: byte columns are UTF-16 columns
        for start, _, end, cls in spans:
            if start >= covered:
                flat += (start - covered, end - start, cls)
                covered = end
        return flat
    to_utf16 = _utf16_columns(line)
    for start, _, end, cls in spans:
        if start >= covered:
            begin, finish = to_utf16(start), to_utf16(end)
            flat += (begin - to_utf16(covered), finish - begin, cls)
            covered = end
    return flat


def _utf16_columns(line: str):
    """Map a UTF-8 byte column of the line to a UTF-16 column."""
    table = [0]
    units = 0
    for char in line:
        units += 2 if ord(char) > 0xFFFF else 1
        table.extend([units] * len(char.encode("utf-8", errors="surrogatepass")))
    return lambda column: table[min(column, len(table) - 1)]
