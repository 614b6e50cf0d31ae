"""Diff of one pass: regions paired by qualified name, merged into pieces in after-file order: the
specification below is followed exactly by this module and by `compareIds` in `static/compare.js`.

Why. Each side is tokenized as its lines outside every region plus one token per region, and the two
token sequences are diffed: outside lines diff as lines, a region stays in place when its neighbours
do, and a region token expands into the line diff of the region against its namesake on the other side,
wherever that one sits (a moved function is matched by name, not by position). The view of one
function is exactly its piece, so it agrees line for line with the whole-file view.

Input: each side's line ids and structure (regions with unique keys, in file order, non-overlapping,
each [start, end) of lines; trusted or not). All line diffs are `linediff.diff` with the same limits.

Calls. The diff is a sequence of calls equal(key, b, a, n) (before[b:b+n] == after[a:a+n]) and
change(key, b, d, a, i) (before[b:b+d] deleted, after[a:a+i] inserted; a side whose count is 0 does not
advance and its position is not read), in this order. A block of a line diff becomes one call: equal,
equal(key, b_start, a_start, b_len); changed, change(key, b_start, b_len, a_start, a_len).
- If either side is untrusted: the blocks of the line diff of the whole texts, key None.
- Otherwise the token sequences are diffed. A region's token equals a token of the other side exactly
  when that is a region with the same key (Python: ("region", key), JS: "region:" + key; line ids are
  ints). For each block, in order:
  equal: over its after tokens in order, each maximal stretch of outside lines is one equal(None, its first
  before line, its first after line, stretch length) and each region token is expand(key);
  changed: over its before tokens in order, each maximal stretch of outside lines is one
  change(None, b, stretch, 0, 0) and each region token whose key the after side lacks is expand(key);
  then over its after tokens in order, each stretch of outside lines is one change(None, 0, 0, a, stretch) and
  each region token is expand(key).
  expand(key): a region only after is change(key, 0, 0, start, length); only before,
  change(key, start, length, 0, 0); on both sides, the blocks of the line diff of the two regions' lines,
  the regions' starts added to their positions, as calls with that key.

Pieces. Calls that move nothing (n == 0, or d == i == 0) are skipped. A call first takes the last piece
if its key is the call's, else appends a new piece (key, no segments). The cursors (next_b, next_a)
start at (0, 0). The piece's last segment is extended when there is one and each side the call
advances (equal: both; change: before when d > 0, after when i > 0) starts at its cursor; otherwise a
new segment [b', a'] is appended, b' being b if the call advances the before side else next_b (a' alike),
and the cursors become (b', a'). Then equal appends the block (n, 0, 0); change adds d and i to the
segment's last block when it has a block and either that block inserts nothing or the call deletes nothing,
else appends (0, d, i). The cursors advance past what the call covered; a change adds i and d to its
piece's counts and appends after[a:a+i] to the inserted ids. The totals are the sums over the pieces; a
region's (inserted, deleted) are its piece's, listed when not both zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial

from . import linediff
from .structure import Region, Structure


@dataclass
class Piece:
    key: str | None  # the region this piece shows, None for lines outside every region
    # Segments of [before_start, after_start, eq, del, ins, eq, del, ins, ...]: blocks of `eq` equal lines,
    # then `del` deleted before lines, then `ins` inserted after lines, contiguous on each side.
    segments: list[list[int]] = field(default_factory=list)
    inserted: int = 0
    deleted: int = 0


@dataclass
class PassDiff:
    pieces: list[Piece]
    inserted_ids: list[int]  # after-side ids of every inserted line, in after order
    inserted: int
    deleted: int
    by_region: dict[str, tuple[int, int]]  # key -> (inserted, deleted), changed regions only


class _Builder:
    """Collects blocks into pieces (one per owner, in order) made of contiguous segments."""

    def __init__(self, after: list[int]):
        self.after = after
        self.pieces: list[Piece] = []
        self.inserted_ids: list[int] = []
        self._next_b = self._next_a = 0  # both cursors at line 0: a first change on one side joins the other

    def _segment(self, key: str | None, b: int | None, a: int | None) -> list[int]:
        """The segment to extend; None for a side the call does not advance."""
        if not self.pieces or self.pieces[-1].key != key:
            self.pieces.append(Piece(key))
        piece = self.pieces[-1]
        if piece.segments and b in (None, self._next_b) and a in (None, self._next_a):
            return piece.segments[-1]
        segment = [self._next_b if b is None else b, self._next_a if a is None else a]
        piece.segments.append(segment)
        self._next_b, self._next_a = segment
        return segment

    def equal(self, key: str | None, b: int, a: int, n: int) -> None:
        if n:
            self._segment(key, b, a).extend((n, 0, 0))
            self._next_b, self._next_a = b + n, a + n

    def change(self, key: str | None, b: int, deleted: int, a: int, inserted: int) -> None:
        if not deleted and not inserted:
            return
        segment = self._segment(key, b if deleted else None, a if inserted else None)
        if len(segment) > 2 and (segment[-1] == 0 or not deleted):  # extends the previous block's change
            segment[-2] += deleted
            segment[-1] += inserted
        else:
            segment.extend((0, deleted, inserted))
        self._next_b += deleted
        self._next_a += inserted
        piece = self.pieces[-1]
        piece.deleted += deleted
        piece.inserted += inserted
        self.inserted_ids.extend(self.after[a : a + inserted])


def diff_pass(
    before: list[int],
    before_structure: Structure,
    after: list[int],
    after_structure: Structure,
    limits: Mapping[str, int] = linediff.LIMITS,
    memo: Memo | None = None,
) -> PassDiff:
    """The diff of one pass (the module docstring). `memo` keeps the line diffs of regions and texts across
    calls with the same limits: two runs compared row by row meet the same pairs of functions again."""
    builder = _Builder(after)
    blocks = partial(_blocks, limits=limits, memo=memo)
    if before_structure.trusted and after_structure.trusted:
        _diff_by_region(builder, before, before_structure.regions, after, after_structure.regions, blocks)
    else:
        _diff_lines(builder, None, before, 0, len(before), after, 0, len(after), blocks)
    by_region: dict[str, tuple[int, int]] = {}
    for piece in builder.pieces:
        if piece.key is not None and (piece.inserted or piece.deleted):
            by_region[piece.key] = (piece.inserted, piece.deleted)
    return PassDiff(
        pieces=builder.pieces,
        inserted_ids=builder.inserted_ids,
        inserted=sum(p.inserted for p in builder.pieces),
        deleted=sum(p.deleted for p in builder.pieces),
        by_region=by_region,
    )


Memo = dict[tuple[tuple[int, ...], tuple[int, ...]], list[linediff.Block]]


def _blocks(before: list, after: list, limits: Mapping[str, int], memo: Memo | None) -> list[linediff.Block]:
    if memo is None:
        return linediff.diff(before, after, limits)
    key = (tuple(before), tuple(after))
    found = memo.get(key)
    if found is None:
        found = memo[key] = linediff.diff(before, after, limits)
    return found


def _diff_lines(builder: _Builder, key, before, b_lo, b_hi, after, a_lo, a_hi, blocks) -> None:
    old, new = before[b_lo:b_hi], after[a_lo:a_hi]
    if old == new:  # most functions of a pass are unchanged: the one equal block the diff would give
        if old:
            builder.equal(key, b_lo, a_lo, b_hi - b_lo)
        return
    for block in blocks(old, new):
        if block.equal:
            builder.equal(key, b_lo + block.b_start, a_lo + block.a_start, block.b_len)
        else:
            builder.change(key, b_lo + block.b_start, block.b_len, a_lo + block.a_start, block.a_len)


def _tokens(lines: list[int], regions: tuple[Region, ...]) -> tuple[list[int | tuple[str, str]], list[int]]:
    """Outside lines as their ids, each region as ("region", key); with each token's first line."""
    tokens: list[int | tuple[str, str]] = []
    starts: list[int] = []
    line = 0
    for region in regions:
        tokens.extend(lines[line : region.start])
        starts.extend(range(line, region.start))
        tokens.append(("region", region.key))
        starts.append(region.start)
        line = region.end
    tokens.extend(lines[line:])
    starts.extend(range(line, len(lines)))
    return tokens, starts


def _stretches(tokens: list[int | tuple[str, str]], lo: int, hi: int):
    """Split tokens[lo:hi] into (None, start, stop) stretches of outside lines and (key, t, t + 1) regions."""
    run_start = lo
    for t in range(lo, hi):
        token = tokens[t]
        if isinstance(token, tuple):
            if t > run_start:
                yield None, run_start, t
            yield token[1], t, t + 1
            run_start = t + 1
    if hi > run_start:
        yield None, run_start, hi


def _diff_by_region(builder: _Builder, before, before_regions, after, after_regions, blocks) -> None:
    b_tokens, b_starts = _tokens(before, before_regions)
    a_tokens, a_starts = _tokens(after, after_regions)
    b_by_key = {r.key: r for r in before_regions}
    a_by_key = {r.key: r for r in after_regions}

    def expand(key: str) -> None:
        old, new = b_by_key.get(key), a_by_key.get(key)
        if old is None:
            assert new is not None  # every key comes from one side or the other
            builder.change(key, 0, 0, new.start, new.end - new.start)
        elif new is None:
            builder.change(key, old.start, old.end - old.start, 0, 0)
        else:
            _diff_lines(builder, key, before, old.start, old.end, after, new.start, new.end, blocks)

    for block in blocks(b_tokens, a_tokens):
        shift = block.b_start - block.a_start  # before token index - after token index, in equal blocks
        if block.equal:
            for key, lo, hi in _stretches(a_tokens, block.a_start, block.a_start + block.a_len):
                if key is None:
                    builder.equal(None, b_starts[lo + shift], a_starts[lo], hi - lo)
                else:
                    expand(key)
            continue
        for key, lo, hi in _stretches(b_tokens, block.b_start, block.b_start + block.b_len):
            if key is None:
                builder.change(None, b_starts[lo], hi - lo, 0, 0)
            elif key not in a_by_key:
                expand(key)
        for key, lo, hi in _stretches(a_tokens, block.a_start, block.a_start + block.a_len):
            if key is None:
                builder.change(None, 0, 0, a_starts[lo], hi - lo)
            else:
                expand(key)
