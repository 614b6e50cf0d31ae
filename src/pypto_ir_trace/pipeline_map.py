"""The pipeline at a glance: what each pass did to each function, and the IR's size after each pass.

Built once per pipeline from what the builder already holds (each distinct text's line ids and regions, each
pass's diff): the page draws the map (static/map.js) from these figures alone, and they are the diff view's:
a cell's inserted and deleted lines are the sums of the pass's pieces of that function (what the diff view
counts with the function picked), its lines after are the function's region in the pass's snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .model import Pass, PipelineMap
from .structure import Region


def merge_orders(sequences: Iterable[Sequence[str]]) -> list[str]:
    """Every name of the sequences once, each sequence's order kept where the ones before allow it: names
    first seen in a later sequence go after the known name before them there (a function outlined from
    another stands beside it), else before the known name after them, else last."""
    order: list[str] = []
    for names in sequences:
        known = set(order)
        fresh: list[str] = []  # new names since the last known one
        anchor = None  # the last known name of this sequence
        for name in names:
            if name not in known:
                if name not in fresh:
                    fresh.append(name)
                continue
            if fresh:
                at = order.index(anchor) + 1 if anchor is not None else order.index(name)
                order[at:at] = fresh
                fresh = []
            anchor = name
        if fresh:
            at = order.index(anchor) + 1 if anchor is not None else len(order)
            order[at:at] = fresh
    return order


def build(
    regions: Sequence[Sequence[Region]], sizes: Sequence[int], input_text: int, passes: Sequence[Pass]
) -> PipelineMap:
    """The map of a pipeline: `regions[t]` and `sizes[t]` of each distinct text t, its input's text index."""
    keys_of = [[region.key for region in text] for text in regions]
    order = merge_orders([keys_of[input_text], *(keys_of[t] for p in passes for t in (p.before, p.after))])
    row = {key: i for i, key in enumerate(order)}
    start = [0] * len(order)
    for region in regions[input_text]:
        start[row[region.key]] = region.end - region.start
    lines = []
    total = sizes[input_text]
    cells: list[tuple[int, ...]] = []
    for p in passes:
        total += (
            p.inserted - p.deleted
        )  # the IR as the pass's diff leaves it (its snapshot, diffed against its predecessor)
        lines.append(total)
        cells.append(_cells(p, regions[p.before], regions[p.after], row) if p.diff is not None else ())
    return PipelineMap(functions=tuple(order), start=tuple(start), lines=tuple(lines), cells=tuple(cells))


def _cells(p: Pass, before: Sequence[Region], after: Sequence[Region], row: dict[str, int]) -> tuple[int, ...]:
    """(function, inserted, deleted, lines after) of each function the pass changes, adds, removes or resizes,
    flattened, by row."""
    assert p.diff is not None
    counts: dict[str, list[int]] = {}
    for piece in p.diff.pieces:
        if piece.key is not None and (piece.inserted or piece.deleted):
            found = counts.setdefault(piece.key, [0, 0])
            found[0] += piece.inserted
            found[1] += piece.deleted
    size_before = {region.key: region.end - region.start for region in before}
    size_after = {region.key: region.end - region.start for region in after}
    flat: list[int] = []
    for key in sorted(counts.keys() | size_before.keys() | size_after.keys(), key=row.__getitem__):
        inserted, deleted = counts.get(key, (0, 0))
        lines = size_after.get(key, 0)
        if inserted or deleted or lines != size_before.get(key, 0):
            flat += (row[key], inserted, deleted, lines)
    return tuple(flat)
