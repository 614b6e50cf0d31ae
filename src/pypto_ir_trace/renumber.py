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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .linediff import Block, diff

Spans = Sequence[tuple[int, int]]  # (start, end) character spans of the names on one line


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


def renamed(
    before: Sequence[str],
    after: Sequence[str],
    blocks: Sequence[Block],
    before_spans: Sequence[Spans],
    after_spans: Sequence[Spans],
) -> list[tuple[int, int]]:
    """(before line, after line) pairs of changed lines that differ only by one consistent renaming."""
    b = [masked(line, spans) for line, spans in zip(before, before_spans)]
    a = [masked(line, spans) for line, spans in zip(after, after_spans)]
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    candidates: list[tuple[int, int, tuple[tuple[str, str], ...]]] = []
    for block in blocks:
        if block.equal:
            for i in range(block.b_start, block.b_start + block.b_len):
                for name in b[i][1]:
                    forward[name] = backward[name] = name  # an unchanged line keeps its names
            continue
        b_keys = [b[i][0] for i in range(block.b_start, block.b_start + block.b_len)]
        a_keys = [a[j][0] for j in range(block.a_start, block.a_start + block.a_len)]
        for inner in diff(b_keys, a_keys):
            if not inner.equal:
                continue
            for k in range(inner.b_len):
                i, j = block.b_start + inner.b_start + k, block.a_start + inner.a_start + k
                candidates.append((i, j, tuple(zip(b[i][1], a[j][1]))))
    votes = Counter(pair for _, _, pairs in candidates for pair in set(pairs))
    for (old, new), _ in sorted(votes.items(), key=lambda item: (-item[1], item[0])):
        if old not in forward and new not in backward:
            forward[old], backward[new] = new, old
    return [(i, j) for i, j, pairs in candidates if all(forward.get(old) == new for old, new in pairs)]


def in_pieces(
    before: Sequence[str],
    after: Sequence[str],
    pieces: Sequence[Sequence[Sequence[int]]],
    before_spans: Sequence[Spans],
    after_spans: Sequence[Spans],
) -> list[tuple[int, int]]:
    """`renamed` for each piece of a pass diff (one function, or the lines outside every function: one
    scope of names each), given as its segments [b, a, eq, del, ins, ...]; pairs in whole-text lines."""
    found: list[tuple[int, int]] = []
    for segments in pieces:
        b_rows: list[int] = []
        a_rows: list[int] = []
        blocks: list[Block] = []
        has_pair = False
        for segment in segments:
            b, a = segment[0], segment[1]
            for at in range(2, len(segment), 3):
                eq, dels, ins = segment[at : at + 3]
                if eq:
                    blocks.append(Block(True, len(b_rows), eq, len(a_rows), eq))
                    b_rows.extend(range(b, b + eq))
                    a_rows.extend(range(a, a + eq))
                    b, a = b + eq, a + eq
                if dels or ins:
                    blocks.append(Block(False, len(b_rows), dels, len(a_rows), ins))
                    b_rows.extend(range(b, b + dels))
                    a_rows.extend(range(a, a + ins))
                    b, a = b + dels, a + ins
                    has_pair = has_pair or (dels > 0 and ins > 0)
        if not has_pair:
            continue  # nothing deleted faces anything inserted: no line can be a renamed one
        pairs = renamed(
            [before[i] for i in b_rows],
            [after[j] for j in a_rows],
            blocks,
            [before_spans[i] for i in b_rows],
            [after_spans[j] for j in a_rows],
        )
        found.extend((b_rows[i], a_rows[j]) for i, j in pairs)
    return sorted(found, key=lambda pair: pair[1])
