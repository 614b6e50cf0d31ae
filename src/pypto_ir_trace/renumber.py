"""Ignore renumbering: changed line pairs of one function that are equal under one consistent renaming.

Language-agnostic: the caller says where the names are on each line (for MLIR, languages.mlir.names_in:
SSA values and block labels). A pair is reported only when its two lines are equal once every name is
masked (same operation, types, attributes, same sigils), and all reported pairs, together with the
function's unchanged lines (where every name stands for itself), fit one bijection old name <-> new name.
How: diff each changed block again with names masked; each pair the masked diff calls equal votes for
its name correspondences; the bijection is built from the unchanged lines first, then from the most
voted correspondences; a pair is kept only if all its correspondences are in the bijection.
The unchanged lines are those the given line diff calls equal: when a renamed line happens to equal
another line's old text, the diff pins its names to themselves, and pairs that contradict that are
left out. Exactness never depends on the diff: a reported pair always differs by names only.
Lines come masked (`masked`, `Lines`), each masked text given as any key equal for equal texts: the caller masks
a line once, however many passes change it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import chain

from .linediff import Block, diff

Spans = Sequence[tuple[int, int]]  # (start, end) character spans of the names on one line
Masked = tuple[Hashable, tuple[str, ...]]  # a line's masked text (or a key of it) and its names in order


@dataclass(frozen=True)
class Lines:
    """A text's lines as renamed() reads them: each line's masked text (or a key of it) and its names, by row.
    Both are sliced (a changed block's keys, an unchanged block's names) and indexed."""

    keys: Sequence[Hashable]
    names: Sequence[tuple[str, ...]]

    @classmethod
    def of(cls, lines: Sequence[Masked]) -> Lines:
        return cls([key for key, _ in lines], [names for _, names in lines])


def masked(line: str, spans: Spans) -> tuple[str, tuple[str, ...]]:
    """The line with each name replaced by its first character (the sigil) and NUL, and the names in order."""
    parts, names, at = [], [], 0
    for start, end in spans:
        parts.append(line[at:start])
        parts.append(line[start : start + 1] + "\0")
        names.append(line[start:end])
        at = end
    parts.append(line[at:])
    return "".join(parts), tuple(names)


def spans_of(masked_line: str, names: Sequence[str]) -> list[tuple[int, int]]:
    """The spans `masked` was given, from what it made of a line that holds no NUL of its own."""
    spans: list[tuple[int, int]] = []
    at = shift = 0  # where the last name's NUL was found; how much longer the line is than its masked text there
    for name in names:
        at = masked_line.index("\0", at) + 1
        start = at - 2 + shift  # the NUL follows the name's first character
        spans.append((start, start + len(name)))
        shift += len(name) - 2
    return spans


def renamed(before: Lines, after: Lines, blocks: Sequence[Block]) -> list[tuple[int, int]]:
    """(before line, after line) pairs of changed lines that differ only by one consistent renaming; the blocks
    one scope's lines in order (its equal and changed blocks, positions in the lines': only the lines they cover
    are read)."""
    candidates: list[tuple[int, int, tuple[tuple[str, str], ...]]] = []
    for block in blocks:
        if block.equal:
            continue
        b = before.keys[block.b_start : block.b_start + block.b_len]
        a = after.keys[block.a_start : block.a_start + block.a_len]
        # most often every line is renamed in place: the masked lines are equal as they stand, with no diff to run
        same = (Block(True, 0, len(b), 0, len(a)),) if b == a else diff(b, a)
        if not any(inner.equal for inner in same):
            continue
        b_names = before.names[block.b_start : block.b_start + block.b_len]
        a_names = after.names[block.a_start : block.a_start + block.a_len]
        for inner in same:
            if inner.equal:
                candidates += [
                    (block.b_start + i, block.a_start + j, tuple(zip(b_names[i], a_names[j])))
                    for i, j in zip(
                        range(inner.b_start, inner.b_start + inner.b_len),
                        range(inner.a_start, inner.a_start + inner.a_len),
                    )
                ]
    if not candidates:  # the unchanged lines' names, the costly part, matter only to a candidate
        return []
    kept = set(
        chain.from_iterable(  # an unchanged line keeps its names
            chain.from_iterable(
                before.names[block.b_start : block.b_start + block.b_len] for block in blocks if block.equal
            )
        )
    )
    # The bijection: a kept name stands for itself; the others take their most voted correspondence that is free
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    votes = Counter(pair for _, _, pairs in candidates for pair in set(pairs))
    free = [item for item in votes.items() if item[0][0] not in kept and item[0][1] not in kept]
    for (old, new), _ in sorted(free, key=lambda item: (-item[1], item[0])):
        if old not in forward and new not in backward:
            forward[old], backward[new] = new, old
    return [
        (i, j)
        for i, j, pairs in candidates
        if all(new == old if old in kept else forward.get(old) == new for old, new in pairs)
    ]


def in_pieces(before: Lines, after: Lines, pieces: Sequence[Sequence[Sequence[int]]]) -> list[tuple[int, int]]:
    """`renamed` for each piece of a pass diff (one function, or the lines outside every function: one
    scope of names each), given as its segments [b, a, eq, del, ins, ...]; pairs in whole-text lines."""
    found: list[tuple[int, int]] = []
    for segments in pieces:
        blocks: list[Block] = []  # in whole-text lines: each block of a segment covers consecutive lines
        has_pair = False
        for segment in segments:
            b, a = segment[0], segment[1]
            for at in range(2, len(segment), 3):
                eq, dels, ins = segment[at : at + 3]
                if eq:
                    blocks.append(Block(True, b, eq, a, eq))
                    b, a = b + eq, a + eq
                if dels or ins:
                    blocks.append(Block(False, b, dels, a, ins))
                    b, a = b + dels, a + ins
                    has_pair = has_pair or (dels > 0 and ins > 0)
        if has_pair:  # else nothing deleted faces anything inserted: no line can be a renamed one
            found += renamed(before, after, blocks)
    return sorted(found, key=lambda pair: pair[1])
