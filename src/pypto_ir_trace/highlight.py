"""Syntax highlighting from grammars/<language>/highlights.scm, as spans per line."""

from __future__ import annotations

from functools import cache

from tree_sitter import Query, QueryCursor, Tree

from . import grammar
from .languages import LANGUAGES


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


def highlight(tree: Tree, lines: list[str], rows: list[tuple[int, int]], language) -> dict[int, list[int]]:
    """Spans for the lines in each [first, stop) row range: row -> flat [gap, length, class, ...].

    `gap` counts UTF-16 code units from the end of the previous span (the viewer indexes JS strings).
    Where captures overlap, the one that starts first wins, then the capture named first in the query.
    """
    query = _query(language)
    index = {name: i for i, name in enumerate(classes())}
    rank = {query.capture_name(i): i for i in range(query.capture_count)}
    found: dict[int, list[tuple[int, int, int, int]]] = {}
    for first, stop in rows:
        cursor = QueryCursor(query)
        cursor.set_point_range((first, 0), (stop, 0))
        for name, nodes in cursor.captures(tree.root_node).items():
            order, cls = rank[name], index[name]
            for node in nodes:
                (r0, c0), (r1, c1) = node.start_point, node.end_point
                if r0 == r1:  # the common case, kept cheap
                    if first <= r0 < stop and c1 > c0:
                        found.setdefault(r0, []).append((c0, order, c1, cls))
                    continue
                for row in range(max(r0, first), min(r1, stop - 1) + 1):
                    start = c0 if row == r0 else 0
                    end = c1 if row == r1 else len(lines[row].encode("utf-8", errors="surrogatepass"))
                    if end > start:
                        found.setdefault(row, []).append((start, order, end, cls))
    return {row: _flatten(lines[row], spans) for row, spans in found.items()}


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
