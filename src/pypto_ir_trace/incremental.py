"""Incremental parsing: each snapshot re-uses the tree of the one parsed before it.

Adjacent snapshots differ in a few scattered lines. One edit spanning from the first change to the last
would make tree-sitter re-parse nearly everything, so every changed block of the line diff becomes its
own `Tree.edit`; an edge the language does not call calm in both texts is widened to unchanged lines where
it is.

Structure must be a function of the text alone. tree-sitter's error recovery can take another path
when it starts from an old tree (a `'''` that closes an earlier string re-reads as a new one), so a
tree with errors is parsed again from scratch. The text after one broken snapshot is parsed from its tree,
and kept when clean; after two texts with errors in a row, from scratch (from a tree with errors, its own
would have errors too): clean snapshots, the common case, stay incremental.

The structure is re-used the same way where the language can check one function's extent cheaply
(Language.function_span): when both trees are clean and every edit lies inside one function's body
(after the line naming it, before its last line), the regions are the previous ones moved by the edits,
once each edited function is checked to span exactly its moved lines. A module-scope MLIR tree of 2,411
dumps spends most of its analysis on functions a pass did not touch: 0.6 ms a snapshot -> a few
function checks.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import replace

from tree_sitter import Parser, Tree

from . import compare, structure
from .structure import Region, Structure

Edit = tuple[int, int, int, int]  # lines [b0, b1) of the previous text became lines [a0, a1) of the new one
Change = tuple[int, int, int, int]  # a changed block: before lines [b, b + deleted), after lines [a, a + inserted)
HEAD_TRIES = 8  # places a region's head is checked at before it counts as gone

MAX_WIDENING = 64  # lines; past that the edit stays where it is (slower parse, same tree)
MOSTLY_NEW = 0.5  # share of the new text's lines inside edits past which it is parsed from scratch


class IncrementalParser:
    def __init__(self, language) -> None:
        self._language = language
        self._parser = Parser(language.grammar)
        self._tree: Tree | None = None
        self._lines: list[str] = []
        self._ids: list[int] = []
        self._offsets: list[int] = [0]
        self._edits: list[Edit] | None = None  # what the last parse changed in the tree before it
        self._structure: Structure | None = None  # of the last text, when its tree is clean
        self._before: Structure | None = None  # of the text before it, when its tree was clean
        self._regions: tuple[Region, ...] = ()  # of the last text whose structure was asked, clean or not
        # The line diffs of the stretches the last parse diffed (compare.line_diff's memo): the pass diff of
        # the same two texts asks for them again
        self.diffs: compare.Memo = {}

    def parse(self, lines: list[str], ids: list[int], deep: Collection[int] | None = None) -> Tree:
        """Parse lines (ids: their interned ids, equal ids for equal lines); rows of the tree are line indices.
        `deep`: the rows that may nest brackets past structure.MAX_NESTING, when known (structure.source)."""
        source, offsets = structure.source(lines, deep)
        tree, self._edits = self._tree, None
        from_clean = tree is not None and not tree.root_node.has_error
        edits = self._changes(lines, ids) if tree is not None else []
        if sum(a1 - a0 for _, _, a0, a1 in edits) > MOSTLY_NEW * len(lines):
            # A pass that rewrote most of the text (MLIR's convert-to-llvm): the old tree would save little
            # parsing and stay alive beside the new one (2 x 14 MB on IREE's 5,600-line dump): let it go.
            self._tree = tree = None
        if tree is not None:
            self._edits = edits
            for b0, b1, a0, a1 in reversed(edits):  # back to front: earlier offsets stay valid
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
            self._tree = tree = self._edits = None
            tree = self._parser.parse(source)
        # A tree with errors is kept only when the text before it was clean: one broken snapshot (a pass that
        # printed something odd once) then costs no fresh parse of the text after it, which is parsed from it,
        # kept when clean. Errors that stay (real MLIR in a dialect's own syntax has them in every snapshot:
        # IREE's 600 dumps were each parsed twice when every tree was kept) are let go now, not at the next
        # parse: such a tree is not alive while the pass is diffed (IREE mlp: 12 MB at the peak).
        self._tree = tree if from_clean or not tree.root_node.has_error else None
        self._lines, self._ids, self._offsets = lines, ids, offsets
        self._before, self._structure = self._structure, None  # structure() is asked about this text only
        return tree

    def structure(self, tree: Tree, lines: list[str]) -> Structure:
        """The structure of the text just parsed (`tree`, `lines`): the previous one moved where the module
        docstring allows, else the language's analysis."""
        found = self._moved(tree) or self._language.analyze(tree, lines)
        self._regions = found.regions
        clean = not tree.root_node.has_error and found.trusted and not any(r.error for r in found.regions)
        self._structure = found if clean else None
        return found

    def _moved(self, tree: Tree) -> Structure | None:
        span, before, edits = self._language.function_span, self._before, self._edits
        if span is None or before is None or edits is None or tree.root_node.has_error:
            return None
        moved = moved_regions(before.regions, edits)
        if moved is None:
            return None
        for region, edited in moved:
            if edited and span(tree, region.def_line) != (region.start, region.end):
                return None
        return Structure(tuple(region for region, _ in moved))

    @property
    def offsets(self) -> list[int]:
        """Where each line of the last parsed text starts in the bytes the parser saw."""
        return self._offsets

    def _changes(self, lines: list[str], ids: list[int]) -> list[Edit]:
        """Changed line ranges [b0, b1) before -> [a0, a1) after, widened to calm boundaries and merged."""
        old = self._lines
        edits: list[Edit] = []
        self.diffs = {}
        for b_start, b_len, a_start, a_len in changed_blocks(self._ids, ids, self._regions, self.diffs):
            b_stop, a_stop = b_start + b_len, a_start + a_len
            up = down = 0
            if not self._calm_in_both(old, b_start, lines, a_start):
                up = self._widening(range(b_start - 1, 0, -1), -1)
            if not self._calm_in_both(old, b_stop, lines, a_stop):
                down = self._widening(range(b_stop, len(old) - 1), +1)
            b0, b1 = b_start - up, b_stop + down
            a0, a1 = a_start - up, a_stop + down
            if edits and b0 <= edits[-1][1]:  # the unchanged lines between the two were swallowed: merge
                b0, a0 = edits[-1][0], edits[-1][2]
                edits.pop()
            edits.append((b0, b1, a0, a1))
        return edits

    def _calm_in_both(self, old: list[str], b: int, new: list[str], a: int) -> bool:
        """Whether the edge of a changed block, before old row b and new row a, is calm in both texts as it
        stands: then the edit ends there (a pass renaming values in every function of a 20,000-line snapshot:
        7,480 lines edited and 0.51 s of parse when each edit took an unchanged line more, 3,867 and 0.31 s)."""
        calm = self._language.calm_boundary
        return (
            calm is not None
            and 0 < b < len(old)
            and 0 < a < len(new)
            and calm(old[b - 1], old[b])
            and calm(new[a - 1], new[a])
        )

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


def changed_blocks(old: list[int], new: list[int], regions: tuple[Region, ...], memo: compare.Memo) -> Iterator[Change]:
    """The changed blocks, in order, of a matching of the old text's lines with the new one's, found a region
    of the old text at a time: each region is looked for in the new text by its head (its lines from its first
    to the one naming it), and only what lies between two heads found is diffed. There, a region whose next
    lines are as they were is diffed alone (compare.line_diff, kept in `memo`): the pass diff of a region
    it pairs by name is the same diff. Unchanged regions cost a comparison of lists, and a text without
    regions is diffed whole."""
    found: list[tuple[Region, int]] = []  # regions whose head was found, with where it starts in the new text
    b = a = low = floor = 0  # the last head found (old, new), the first new line past it, its region's end
    for region in regions:
        if region.start < floor or not region.start <= region.def_line < region.end:
            continue  # not in file order (an untrusted structure): its lines stay in the stretch around them
        head = old[region.start : region.def_line + 1]
        at = _head(head, new, a + region.start - b, low)
        if at is not None:
            found.append((region, at))
            b, a, low, floor = region.start, at, at + len(head), region.end
    b = a = 0
    for index, (region, at) in enumerate(found):
        yield from _stretch(old, new, b, region.start, a, at, memo)
        following, a_next = found[index + 1] if index + 1 < len(found) else (None, len(new))
        stop = following.start if following is not None else len(old)
        after = stop - region.end  # the lines between this region and the next head (or the end)
        if a_next - after >= at and old[region.end : stop] == new[a_next - after : a_next]:
            yield from _stretch(old, new, region.start, region.end, at, a_next - after, memo)
        else:
            yield from _stretch(old, new, region.start, stop, at, a_next, memo)
        b, a = stop, a_next
    yield from _stretch(old, new, b, len(old), a, len(new), memo)


def _head(head: list[int], new: list[int], expected: int, low: int) -> int | None:
    """Where the lines of `head` start in `new`, at `expected` or else at the first of a few places past `low`
    that hold its last line (a region's naming line); None when none holds it."""
    if expected >= low and new[expected : expected + len(head)] == head:
        return expected
    last, at = head[-1], low + len(head) - 1
    for _ in range(HEAD_TRIES):
        try:
            at = new.index(last, at)
        except ValueError:
            return None
        start = at - len(head) + 1
        if new[start : at + 1] == head:
            return start
        at += 1
    return None


def _stretch(
    old: list[int], new: list[int], b0: int, b1: int, a0: int, a1: int, memo: compare.Memo
) -> Iterator[Change]:
    """The changed blocks of old[b0:b1] against new[a0:a1], in the whole texts' numbering."""
    before, after = old[b0:b1], new[a0:a1]
    if before == after:
        return
    for block in compare.line_diff(before, after, memo):
        if not block.equal:
            yield b0 + block.b_start, block.b_len, a0 + block.a_start, block.a_len


def moved_regions(regions: tuple[Region, ...], edits: list[Edit]) -> list[tuple[Region, bool]] | None:
    """Each region with its lines moved by the edits (in order, not overlapping) and whether an edit lies
    inside it; None when an edit is not inside one region's body: it touches a line that names a region or
    closes one, or lies between regions."""
    moved, at, shift = [], 0, 0
    for region in regions:
        start, def_line = region.start + shift, region.def_line + shift
        edited = False
        while at < len(edits) and edits[at][0] < region.end:
            b0, b1, a0, a1 = edits[at]
            if b0 <= region.def_line or b1 >= region.end:
                return None  # before the region, on its naming line, or on its closing line
            shift, edited, at = shift + (a1 - a0) - (b1 - b0), True, at + 1
        moved.append((replace(region, start=start, end=region.end + shift, def_line=def_line), edited))
    return moved if at == len(edits) else None
