"""Diff of one pass: regions paired by qualified name, then by content, merged into pieces in after-file
order: the specification below is followed exactly by this module and by `compareIds` in `static/compare.js`.

Why. Each side is tokenized as its lines outside every region plus one token per region, and the two
token sequences are diffed: outside lines diff as lines, a region stays in place when its neighbours
do, and a region token expands into the line diff of the region against its partner on the other side,
wherever that one sits (a moved function is matched by name, not by position). The view of one
function is exactly its piece, so it agrees line for line with the whole-file view. A function that a
pass renames or splits has no namesake: it is paired by content with the most similar region left
unpaired between the same paired neighbours, so a rename shows as one changed header line, not as a
deleted and an inserted function.

Input: each side's line ids and structure (regions with unique keys, in file order, non-overlapping,
each [start, end) of lines; trusted or not). All line diffs are `linediff.diff` with the same limits.

Pairing (both sides trusted). A region is paired by name with the region of the other side that has its
key. shared(r, s) is the size of the multiset intersection of the line ids of regions r and s; r and s
are similar when 4 * shared(r, s) >= len(r) + len(s) (at least half of their lines in common, Dice >= 1/2).
When the after side has a region whose key the before side lacks, regions are also paired by content:
1. A by-name pair is weak when its two regions are not similar. The pairing tokens of each side are its
   outside lines as their ids and one token per region, equal across the sides exactly for the regions of
   a by-name pair that is not weak. Their line diff's changed blocks hold what lies between the same
   paired neighbours.
2. In each changed block, the before candidates are its before regions whose key the after side lacks or
   whose by-name pair is weak, the after candidates its after regions whose key the before side lacks.
   When there are both and len(after candidates) * (lines of the before candidates) + len(before
   candidates) * (lines of the after candidates) <= PAIR_MAX_COST, the similar (before, after) candidate
   pairs are taken greedily: by shared / (len(r) + len(s)) descending (compared exactly, as integer
   products), then the after region's file order, then the before region's; a pair is taken when neither
   region is taken yet. A taken pair is a content pair (a split gives its best match; its other parts stay
   inserted); a weak by-name pair whose before region is taken is no longer a pair: its after region is
   unpaired.
A pair's key is its after region's key; a content pair also records its before region's key.

Calls. The diff is a sequence of calls equal(key, b, a, n) (before[b:b+n] == after[a:a+n]) and
change(key, b, d, a, i) (before[b:b+d] deleted, after[a:a+i] inserted; a side whose count is 0 does not
advance and its position is not read), in this order. A block of a line diff becomes one call: equal,
equal(key, b_start, a_start, b_len); changed, change(key, b_start, b_len, a_start, a_len).
- If either side is untrusted: the blocks of the line diff of the whole texts, key None.
- Otherwise the token sequences are diffed. A region's token equals a token of the other side exactly
  when that is the region it is paired with (Python: ("pair", key of the pair), ("removed", key) and
  ("added", key) for unpaired regions; JS: "pair:" + key, "removed:" + key, "added:" + key; line ids are
  ints). For each block, in order:
  equal: over its after tokens in order, each maximal stretch of outside lines is one equal(None, its first
  before line, its first after line, stretch length) and each region token is expand(token);
  changed: over its before tokens in order, each maximal stretch of outside lines is one
  change(None, b, stretch, 0, 0) and each unpaired region's token is expand(token);
  then over its after tokens in order, each stretch of outside lines is one change(None, 0, 0, a, stretch) and
  each region token is expand(token).
  expand(token): an unpaired after region is change(key, 0, 0, start, length); an unpaired before region,
  change(key, start, length, 0, 0); a pair, the blocks of the line diff of its two regions' lines,
  the regions' starts added to their positions, as calls with the pair's key.

Pieces. Calls that move nothing (n == 0, or d == i == 0) are skipped. A call first takes the last piece
if its key is the call's, else appends a new piece (key, no segments; before_key the before region's key
when key is that of a content pair). The cursors (next_b, next_a)
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
    before_key: str | None = None  # set on a content pair's piece: its before region's key (renamed, split)


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
        self.before_keys: Mapping[str, str] = {}  # a content pair's key -> its before region's key
        self.pieces: list[Piece] = []
        self.inserted_ids: list[int] = []
        self._next_b = self._next_a = 0  # both cursors at line 0: a first change on one side joins the other

    def _segment(self, key: str | None, b: int | None, a: int | None) -> list[int]:
        """The segment to extend; None for a side the call does not advance."""
        if not self.pieces or self.pieces[-1].key != key:
            self.pieces.append(Piece(key, before_key=self.before_keys.get(key) if key is not None else None))
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
    by_content: bool = True,
) -> PassDiff:
    """The diff of one pass (the module docstring). `memo` keeps the line diffs of regions and texts across
    calls with the same limits: two runs compared row by row meet the same pairs of functions again.
    by_content False pairs regions by name only (benchmarks/pairing.py measures what content pairing does)."""
    builder = _Builder(after)
    blocks = partial(line_diff, limits=limits, memo=memo)
    if before_structure.trusted and after_structure.trusted:
        _diff_by_region(builder, before, before_structure.regions, after, after_structure.regions, blocks, by_content)
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


def line_diff(
    before: list, after: list, memo: Memo | None = None, limits: Mapping[str, int] = linediff.LIMITS
) -> list[linediff.Block]:
    """linediff.diff of two lists, kept in `memo` (by their items, for these limits only) when one is given:
    the incremental parser fills one with the line diffs of the regions a pass changed, diffed here again."""
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


Token = int | tuple[str, str]  # an outside line's id, or a region's (kind, key)
PAIR_MAX_COST = 1_000_000  # bound on the line counts compared to pair one block's candidates by content


def _tokens(lines: list[int], regions: tuple[Region, ...], token_of) -> tuple[list[Token], list[int]]:
    """Outside lines as their ids, each region as token_of(region); with each token's first line."""
    tokens: list[Token] = []
    starts: list[int] = []
    line = 0
    for region in regions:
        tokens.extend(lines[line : region.start])
        starts.extend(range(line, region.start))
        tokens.append(token_of(region))
        starts.append(region.start)
        line = region.end
    tokens.extend(lines[line:])
    starts.extend(range(line, len(lines)))
    return tokens, starts


def _stretches(tokens: list[Token], lo: int, hi: int):
    """Split tokens[lo:hi] into (None, start, stop) stretches of outside lines and (token, t, t + 1) regions."""
    run_start = lo
    for t in range(lo, hi):
        token = tokens[t]
        if isinstance(token, tuple):
            if t > run_start:
                yield None, run_start, t
            yield token, t, t + 1
            run_start = t + 1
    if hi > run_start:
        yield None, run_start, hi


class _Lines:
    """Each region's line ids as counts, made once: shared() of the Pairing."""

    def __init__(self, before: list[int], after: list[int]):
        self._sides = (before, after)
        self._counts: dict[tuple[int, str], dict[int, int]] = {}

    def counts(self, side: int, region: Region) -> dict[int, int]:
        found = self._counts.get((side, region.key))
        if found is None:
            found = self._counts[side, region.key] = {}
            for line in self._sides[side][region.start : region.end]:
                found[line] = found.get(line, 0) + 1
        return found

    def shared(self, old: Region, new: Region) -> int:
        """The size of the multiset intersection of a before and an after region's line ids."""
        small, large = self.counts(0, old), self.counts(1, new)
        if len(small) > len(large):
            small, large = large, small
        return sum(min(n, large.get(line, 0)) for line, n in small.items())


def _similar(shared: int, old: Region, new: Region) -> bool:
    return shared > 0 and 4 * shared >= (old.end - old.start) + (new.end - new.start)


def content_pairs(before, before_regions, after, after_regions, blocks) -> dict[str, str]:
    """Before key -> after key of the regions paired by content (the Pairing of the module docstring)."""
    b_by_key = {r.key: r for r in before_regions}
    a_by_key = {r.key: r for r in after_regions}
    if all(r.key in b_by_key for r in after_regions):
        return {}
    lines = _Lines(before, after)
    weak = {
        key
        for key, old in b_by_key.items()
        if key in a_by_key and not _similar(lines.shared(old, a_by_key[key]), old, a_by_key[key])
    }

    strong = {key for key in b_by_key if key in a_by_key and key not in weak}
    b_tokens, _ = _tokens(before, before_regions, lambda r: ("region" if r.key in strong else "before", r.key))
    a_tokens, _ = _tokens(after, after_regions, lambda r: ("region" if r.key in strong else "after", r.key))
    pairs: dict[str, str] = {}
    for block in blocks(b_tokens, a_tokens):
        if block.equal:
            continue
        olds = [b_by_key[t[1]] for t, _, _ in _stretches(b_tokens, block.b_start, block.b_start + block.b_len) if t]
        news = [a_by_key[t[1]] for t, _, _ in _stretches(a_tokens, block.a_start, block.a_start + block.a_len) if t]
        olds = [r for r in olds if r.key not in a_by_key or r.key in weak]
        news = [r for r in news if r.key not in b_by_key]
        if olds and news and _cost(olds, news) <= PAIR_MAX_COST:
            pairs.update(_greedy(olds, news, lines))
    return pairs


def _cost(olds: list[Region], news: list[Region]) -> int:
    def total(regions: list[Region]) -> int:
        return sum(r.end - r.start for r in regions)

    return len(news) * total(olds) + len(olds) * total(news)


def _greedy(olds: list[Region], news: list[Region], lines: _Lines) -> dict[str, str]:
    """The similar pairs taken best first: shared / total lines, then after order, then before order."""
    from fractions import Fraction  # here: with the decimal module it costs 5 ms of every start-up

    found = []
    for j, new in enumerate(news):
        for i, old in enumerate(olds):
            shared = lines.shared(old, new)
            if _similar(shared, old, new):
                found.append((Fraction(-shared, (old.end - old.start) + (new.end - new.start)), j, i))
    taken_old: dict[int, int] = {}
    taken_new: set[int] = set()
    for _, j, i in sorted(found):
        if i not in taken_old and j not in taken_new:
            taken_old[i] = j
            taken_new.add(j)
    return {olds[i].key: news[j].key for i, j in taken_old.items()}


def _diff_by_region(builder: _Builder, before, before_regions, after, after_regions, blocks, by_content) -> None:
    pairs = content_pairs(before, before_regions, after, after_regions, blocks) if by_content else {}
    builder.before_keys = {new: old for old, new in pairs.items()}
    b_by_key = {r.key: r for r in before_regions}
    a_by_key = {r.key: r for r in after_regions}
    # A region's partner: by content, else by name unless its namesake went to a content pair.
    b_partner = {r.key: pairs.get(r.key, r.key) for r in before_regions if r.key in pairs or r.key in a_by_key}
    a_partner = {new: old for old, new in b_partner.items()}
    b_tokens, b_starts = _tokens(before, before_regions, lambda r: _token(b_partner.get(r.key), "removed", r.key))
    a_tokens, a_starts = _tokens(
        after, after_regions, lambda r: _token(r.key if r.key in a_partner else None, "added", r.key)
    )

    def expand(token: tuple[str, str]) -> None:
        kind, key = token
        if kind == "added":
            new = a_by_key[key]
            builder.change(key, 0, 0, new.start, new.end - new.start)
        elif kind == "removed":
            old = b_by_key[key]
            builder.change(key, old.start, old.end - old.start, 0, 0)
        else:
            old, new = b_by_key[a_partner[key]], a_by_key[key]
            _diff_lines(builder, key, before, old.start, old.end, after, new.start, new.end, blocks)

    for block in blocks(b_tokens, a_tokens):
        shift = block.b_start - block.a_start  # before token index - after token index, in equal blocks
        if block.equal:
            for token, lo, hi in _stretches(a_tokens, block.a_start, block.a_start + block.a_len):
                if token is None:
                    builder.equal(None, b_starts[lo + shift], a_starts[lo], hi - lo)
                else:
                    expand(token)
            continue
        for token, lo, hi in _stretches(b_tokens, block.b_start, block.b_start + block.b_len):
            if token is None:
                builder.change(None, b_starts[lo], hi - lo, 0, 0)
            elif token[0] == "removed":
                expand(token)
        for token, lo, hi in _stretches(a_tokens, block.a_start, block.a_start + block.a_len):
            if token is None:
                builder.change(None, 0, 0, a_starts[lo], hi - lo)
            else:
                expand(token)


def _token(pair: str | None, unpaired: str, key: str) -> tuple[str, str]:
    return ("pair", pair) if pair is not None else (unpaired, key)
