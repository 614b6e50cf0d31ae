"""Incremental parsing: each snapshot re-uses the tree of the one parsed before it.

Adjacent snapshots differ in a few scattered lines. One edit spanning from the first change to the last
would make tree-sitter re-parse nearly everything, so every changed block of the line diff becomes its
own `Tree.edit`, and tree-sitter re-parses only around them.
"""

from __future__ import annotations

from itertools import accumulate

from tree_sitter import Tree

from . import grammar, linediff, structure


class IncrementalParser:
    def __init__(self) -> None:
        self._parser = grammar.parser()
        self._tree: Tree | None = None
        self._ids: list[int] = []
        self._offsets: list[int] = [0]

    def parse(self, lines: list[str], ids: list[int]) -> Tree:
        """Parse lines (ids: their interned ids, equal ids for equal lines); rows of the tree are line indices."""
        encoded = [structure.encode_line(line) + b"\n" for line in lines]  # NUL-safe, as structure.parse
        source = b"".join(encoded)
        offsets = [0, *accumulate(map(len, encoded))]
        tree = self._tree
        if tree is not None:
            changes = [b for b in linediff.diff(self._ids, ids) if not b.equal]
            for block in reversed(changes):  # back to front: earlier offsets stay valid
                start = self._offsets[block.a_start]
                tree.edit(
                    start_byte=start,
                    old_end_byte=self._offsets[block.a_start + block.a_len],
                    new_end_byte=start + offsets[block.b_start + block.b_len] - offsets[block.b_start],
                    start_point=(block.a_start, 0),
                    old_end_point=(block.a_start + block.a_len, 0),
                    new_end_point=(block.a_start + block.b_len, 0),
                )
        self._tree = self._parser.parse(source, tree) if tree is not None else self._parser.parse(source)
        self._ids, self._offsets = ids, offsets
        return self._tree
