"""What a parse tells of a text's new lines, as one record: made from a tree (builder._facts, here or in a worker
process reading a piece: chunked.py pickles it back), kept per line in the report's table of lines (linetable.LineTable).
A new fact is a field here, the code that reads it from the tree, and where the table keeps it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from operator import itemgetter

KEY_PARTS = "\x1f"  # between the parts of a dump-level key (LineFacts.keys)


@dataclass(slots=True)
class LineFacts:
    """Each fact as (row, value) pairs in row order, only for the rows that have it."""

    spans: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # highlight spans (highlight.spans_of)
    names: list[tuple[int, Sequence[tuple[int, int]]]] = field(default_factory=list)  # value names (Language.names_in)
    marks: list[tuple[int, int]] = field(default_factory=list)  # dump-level marks (DumpLevel.marks)
    elisions: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # what the viewer may elide
    # what a dump level may hide (DumpLevel.keys): the texts of its parts in line order, joined by KEY_PARTS
    keys: list[tuple[int, str]] = field(default_factory=list)
    ops: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)  # the ops a line runs (opcounts.ops_of)

    def shifted(self, rows: int) -> LineFacts:
        """The same facts, every row moved by `rows` (a piece's rows in the whole text's numbering)."""
        return LineFacts(
            *([(row + rows, value) for row, value in getattr(self, fact.name)] for fact in fields(LineFacts))
        )

    def merged(self, other: LineFacts) -> LineFacts:
        """Both records' facts as one, each fact in row order (the two records' rows apart)."""
        return LineFacts(
            *(sorted(getattr(self, fact.name) + getattr(other, fact.name), key=_ROW) for fact in fields(LineFacts))
        )


_ROW = itemgetter(0)
