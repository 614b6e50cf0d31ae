"""Incremental parsing: each snapshot re-uses the tree of the one parsed before it.

Adjacent snapshots differ in a few scattered lines. One edit spanning from the first change to the last
would make tree-sitter re-parse nearly everything, so every changed block of the line diff becomes its
own `Tree.edit`, widened to unchanged lines where the language says a boundary is calm.

Structure must be a function of the text alone. tree-sitter's error recovery can take another path
when it starts from an old tree (a `'''` that closes an earlier string re-reads as a new one), so a
tree with errors is parsed again from scratch: clean snapshots, the common case, stay incremental.
"""

from __future__ import annotations

from tree_sitter import Parser, Tree

from . import linediff, structure

MAX_WIDENING = 64  # lines; past that the edit stays where it is (slower parse, same tree)


class IncrementalParser:
    def __init__(self, language) -> None:
        self._language = language
        self._parser = Parser(language.grammar)
        self._tree: Tree | None = None
        self._lines: list[str] = []
        self._ids: list[int] = []
        self._offsets: list[int] = [0]

    def parse(self, lines: list[str], ids: list[int], long_lines: bool = True) -> Tree:
        """Parse lines (ids: their interned ids, equal ids for equal lines); rows of the tree are line indices.
        Without `long_lines` no line is longer than structure.MAX_NESTING (structure.source)."""
        source, offsets = structure.source(lines, long_lines)
        tree = self._tree
        if tree is not None:
            for b0, b1, a0, a1 in reversed(self._edits(ids)):  # back to front: earlier offsets stay valid
                tree.edit(
                    start_byte=self._offsets[b0],
                    old_end_byte=self._offsets[b1],
                    new_end_byte=self._offsets[b0] + offsets[a1] - offsets[a0],
                    start_point=(b0, 0),
                    old_end_point=(b1, 0),
                    new_end_point=(b0 + a1 - a0, 0),
                )
            tree = self._parser.parse(source, tree)
        if tree is None or tree.root_node.has_error:
            # A tree costs about 110 bytes a node (1.7 GB for 400,000 lines): let the old ones go first.
            self._tree = tree = None
            tree = self._parser.parse(source)
        self._tree, self._lines, self._ids, self._offsets = tree, lines, ids, offsets
        return tree

    @property
    def offsets(self) -> list[int]:
        """Where each line of the last parsed text starts in the bytes the parser saw."""
        return self._offsets

    def _edits(self, ids: list[int]) -> list[tuple[int, int, int, int]]:
        """Changed line ranges [b0, b1) before -> [a0, a1) after, widened to calm boundaries and merged."""
        old = self._lines
        edits: list[tuple[int, int, int, int]] = []
        for block in linediff.diff(self._ids, ids):
            if block.equal:
                continue
            up = self._widening(range(block.b_start - 1, 0, -1), -1)
            down = self._widening(range(block.b_start + block.b_len, len(old) - 1), +1)
            b0, b1 = block.b_start - up, block.b_start + block.b_len + down
            a0, a1 = block.a_start - up, block.a_start + block.a_len + down
            if edits and b0 <= edits[-1][1]:  # the unchanged lines between the two were swallowed: merge
                b0, a0 = edits[-1][0], edits[-1][2]
                edits.pop()
            edits.append((b0, b1, a0, a1))
        return edits

    def _widening(self, rows: range, step: int) -> int:
        """How many unchanged lines to add so that the boundary sits where the language calls it calm."""
        calm = self._language.calm_boundary
        if calm is None:
            return 0
        old = self._lines
        for count, row in enumerate(rows[:MAX_WIDENING], 1):
            if calm(old[row], old[row + step]):
                return count
        return 0
