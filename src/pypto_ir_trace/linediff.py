"""Line diff of two sequences, with a cost that follows the size of the change: the specification below
is followed exactly by this module and by its port `static/linediff.js` (a test holds them to it).
Here, as everywhere in Python and in the page's scripts (linediff.js names them the same), b is the before
side and a the after side.

Result. `diff(b, a, limits)` returns blocks (equal, b_start, b_len, a_start, a_len) covering b and a in
order: the canonical encoding of a set of matched pairs (i, j), b[i] == a[j], increasing on both sides.
An equal block is a stretch of matched pairs with consecutive i and j; a changed block holds what lies
between two equal blocks; adjacent blocks of one kind are merged and empty ones dropped, so equal and
changed blocks alternate. Items compare with `==` (JS: `===`): callers pass ints or strings.

Matching. The pairs are those of solve(0, len(b), 0, len(a)); solve on the gap b[b_lo:b_hi] vs
a[a_lo:a_hi] depends on that gap alone, so gaps may be solved in any order:
1. Trim: p is the length of the common prefix of the gap, then s the length of the common suffix of
   what follows the prefix (so p + s never exceeds either side). Both are matched.
   The middle, b[b_lo+p:b_hi-s] vs a[a_lo+p:a_hi-s], is solved by the first of 2-4 that applies.
2. Either side of the middle is empty: nothing more is matched.
3. Anchors (patience): the pairs (i, j) of items that occur exactly once in the b-middle and exactly
   once in the a-middle, taken in increasing i; from them the chain strictly increasing in j that
   patience sorting picks. Each pair in turn goes on pile k, k = how many piles have a top j smaller
   than its j (a new pile when that is all of them), becomes that pile's top and remembers the top of
   pile k - 1 at that moment (nothing for k = 0). The chain is read back from the top of the last pile.
   With at least one anchor: the anchors are matched, and every gap between consecutive anchors, before
   the first and after the last (within the middle), is solved again from step 1 (its own trim, its own
   counts of unique items).
4. Otherwise (no anchor), Myers' greedy O(ND) diff of the middle's shared items: the items of the b-middle
   that occur in the a-middle, and those of the a-middle that occur in the b-middle, each in their order
   (an item on one side only can never be matched: a renumbered function, where nearly every line is such
   an item, shrinks to the few lines its two sides share). If there are none, nothing is matched.
   Otherwise, on those two sequences, n and m items long (x indexes the b-side, y the a-side, diagonal
   k = x - y; V maps a diagonal to an x, every entry 0 before round 0):
   rounds d = 0, 1, ..., d_max with d_max = min(n + m, limits["myers_max_cost"] // (n + m));
   in round d, for k = -d, -d + 2, ..., d: if k == -d, or k != d and V[k - 1] < V[k + 1], then
   x = V[k + 1] (down: an insertion), else x = V[k - 1] + 1 (right: a deletion, also on ties); y = x - k;
   while x < n and y < m and b-side[x] == a-side[y], x and y grow by one; V[k] = x; the search ends as
   soon as x >= n and y >= m. If no round of 0..d_max ends it, the cap gives up: nothing in the middle is
   matched (it becomes one changed block): the work stays within a small multiple of myers_max_cost.
   Backtrack from (x, y) = (n, m) with d from the last round down to 0, V_d being V as it was before
   round d: k = x - y; down or right by the rule above read on V_d; the previous point is
   (V_d[k + 1], V_d[k + 1] - k - 1) when down, else (V_d[k - 1], V_d[k - 1] - k + 1); while x and y both
   exceed that point's, (x - 1, y - 1) is matched and both decrease; then, if d > 0, (x, y) moves to it.
   Each matched (x, y) is the pair of the middle's items that the x-th b-side and y-th a-side item are.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

# The limits of the specification, exported to the page in the report model (data.limits): one source.
# myers_max_cost: (n + m) * d_max spent on one anchorless gap before giving up on it.
LIMITS = {"myers_max_cost": 2_000_000}


class Block(NamedTuple):
    """before b[b_start:b_start + b_len] against after a[a_start:a_start + a_len]; equal blocks have b_len == a_len."""

    equal: bool
    b_start: int
    b_len: int
    a_start: int
    a_len: int


def diff(b: Sequence[Hashable], a: Sequence[Hashable], limits: Mapping[str, int] = LIMITS) -> list[Block]:
    """Blocks covering both sequences in order; equal and changed blocks alternate."""
    max_cost = limits["myers_max_cost"]
    blocks: list[Block] = []
    pending = [(0, len(b), 0, len(a))]  # a stack: gaps, and anchor stretches as (-1 - b_start, length, a_start, 0)
    while pending:
        b_lo, b_hi, a_lo, a_hi = pending.pop()
        if b_lo < 0:
            _append(blocks, Block(True, -1 - b_lo, b_hi, a_lo, b_hi))
            continue
        prefix = _common_prefix(b, a, b_lo, b_hi, a_lo, a_hi)
        suffix = _common_suffix(b, a, b_lo + prefix, b_hi, a_lo + prefix, a_hi)
        _append(blocks, Block(True, b_lo, prefix, a_lo, prefix))
        b_mid, a_mid = (b_lo + prefix, b_hi - suffix), (a_lo + prefix, a_hi - suffix)
        tail = Block(True, b_hi - suffix, suffix, a_hi - suffix, suffix)
        if b_mid[0] == b_mid[1] or a_mid[0] == a_mid[1]:
            _append(blocks, Block(False, b_mid[0], b_mid[1] - b_mid[0], a_mid[0], a_mid[1] - a_mid[0]))
            _append(blocks, tail)
            continue
        anchors = _unique_anchors(b, a, *b_mid, *a_mid)
        if not anchors:
            for block in _myers(b, a, *b_mid, *a_mid, max_cost):
                _append(blocks, block)
            _append(blocks, tail)
            continue
        # Push in reverse so that gaps and anchors pop in order; the tail comes last.
        pending.append((-1 - tail.b_start, tail.b_len, tail.a_start, 0))
        gaps = []
        b_at, a_at = b_mid[0], a_mid[0]
        for i, j, n in _stretches(anchors):
            if i > b_at or j > a_at:
                gaps.append((b_at, i, a_at, j))
            gaps.append((-1 - i, n, j, 0))
            b_at, a_at = i + n, j + n
        gaps.append((b_at, b_mid[1], a_at, a_mid[1]))
        pending.extend(reversed(gaps))
    return blocks


def _append(blocks: list[Block], block: Block) -> None:
    if block.b_len == 0 and block.a_len == 0:
        return
    if blocks and blocks[-1].equal == block.equal:
        last = blocks[-1]
        blocks[-1] = Block(last.equal, last.b_start, last.b_len + block.b_len, last.a_start, last.a_len + block.a_len)
    else:
        blocks.append(block)


def _common_prefix(b, a, b_lo, b_hi, a_lo, a_hi) -> int:
    """How many items from the start are equal, compared a slice at a time (at C speed): the slice doubles
    while it matches and halves where it does not. Most of a pass's functions are unchanged: one step each."""
    n, step = 0, 64
    limit = min(b_hi - b_lo, a_hi - a_lo)
    while n < limit:
        step = min(step, limit - n)
        if b[b_lo + n : b_lo + n + step] == a[a_lo + n : a_lo + n + step]:
            n, step = n + step, step * 2
        elif step > 1:
            step //= 2
        else:
            break
    return n


def _common_suffix(b, a, b_lo, b_hi, a_lo, a_hi) -> int:
    """How many items from the end are equal, as _common_prefix finds it."""
    n, step = 0, 64
    limit = min(b_hi - b_lo, a_hi - a_lo)
    while n < limit:
        step = min(step, limit - n)
        if b[b_hi - n - step : b_hi - n] == a[a_hi - n - step : a_hi - n]:
            n, step = n + step, step * 2
        elif step > 1:
            step //= 2
        else:
            break
    return n


def _stretches(anchors: list[tuple[int, int]]):
    """Consecutive anchors (i, j), (i + 1, j + 1), ... as one (i, j, length) stretch."""
    start = 0
    for k in range(1, len(anchors) + 1):
        if k == len(anchors) or anchors[k] != (anchors[k - 1][0] + 1, anchors[k - 1][1] + 1):
            yield anchors[start][0], anchors[start][1], k - start
            start = k


def _unique_anchors(b, a, b_lo, b_hi, a_lo, a_hi) -> list[tuple[int, int]]:
    """Pairs (i, j) of items unique on both sides, longest chain increasing in both (patience)."""
    count: dict[Hashable, int] = {}
    where_b: dict[Hashable, int] = {}
    for i in range(b_lo, b_hi):
        item = b[i]
        count[item] = count.get(item, 0) + 1
        where_b[item] = i
    where_a: dict[Hashable, int] = {}
    seen_a: dict[Hashable, int] = {}
    for j in range(a_lo, a_hi):
        item = a[j]
        if count.get(item) == 1:
            seen_a[item] = seen_a.get(item, 0) + 1
            where_a[item] = j
    pairs = sorted((where_b[item], where_a[item]) for item, n in seen_a.items() if n == 1)
    return _longest_increasing(pairs)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The patience chain of pairs (sorted by i) whose j strictly increases, as the docstring above says."""
    tails: list[int] = []  # tails[k]: j on top of pile k
    tail_index: list[int] = []
    back: list[int] = []
    for index, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        back.append(tail_index[k - 1] if k else -1)
        if k == len(tails):
            tails.append(j)
            tail_index.append(index)
        else:
            tails[k] = j
            tail_index[k] = index
    result = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        result.append(pairs[index])
        index = back[index]
    return result[::-1]


def _myers(b, a, b_lo, b_hi, a_lo, a_hi, max_cost: int) -> list[Block]:
    """Myers' greedy shortest edit script on the shared items of b[b_lo:b_hi] vs a[a_lo:a_hi] (both
    non-empty), as blocks over the whole gap."""
    whole = [Block(False, b_lo, b_hi - b_lo, a_lo, a_hi - a_lo)]  # what giving up, or no shared item, gives
    in_b, in_a = set(b[b_lo:b_hi]), set(a[a_lo:a_hi])
    b_at = [i for i in range(b_lo, b_hi) if b[i] in in_a]
    if not b_at:
        return whole
    a_at = [j for j in range(a_lo, a_hi) if a[j] in in_b]
    old, new = [b[i] for i in b_at], [a[j] for j in a_at]
    n, m = len(old), len(new)
    max_d = min(n + m, max_cost // (n + m))
    if n + m - 2 * _shared(old, new) > max_d:
        # No edit script within the cap exists: it keeps at most the items the sides share, so it takes at least
        # n + m - 2 * shared rounds. The rounds would give up; giving up now is the same answer, sooner.
        return whole
    offset = max_d + 1
    v = [0] * (2 * max_d + 3)
    trace: list[list[int]] = []  # trace[d]: V before round d, for k in -d-1 .. d+1
    # The hot loop, in V's own indices (i = offset + k): no offset arithmetic per step, and the rule's
    # ends (k == -d goes down, k == d right) read from sentinels set past them once the round is saved:
    # the backtrack reads V_d only at -d < k < d (and V_0[1] = 0), which the sentinels never reach.
    for d in range(max_d + 1):
        low, high = offset - d, offset + d
        trace.append(v[low - 1 : high + 2])
        v[low - 1] = v[high + 1] = -1
        for i in range(low, high + 1, 2):
            x = v[i + 1] if v[i - 1] < v[i + 1] else v[i - 1] + 1
            y = x - i + offset
            while x < n and y < m and old[x] == new[y]:
                x += 1
                y += 1
            v[i] = x
            if x >= n and y >= m:
                matched = [(b_at[x], a_at[y]) for x, y in _backtrack(trace, n, m)]
                return _encode(matched, b_lo, b_hi, a_lo, a_hi)
    return whole  # the cap gave up: one replaced block


def _shared(old: list, new: list) -> int:
    """How many items the two sides have in common, counted as multisets: no diff matches more."""
    count = Counter(old)
    count.subtract(new)
    return len(old) - sum(n for n in count.values() if n > 0)


def _backtrack(trace: list[list[int]], n: int, m: int) -> list[tuple[int, int]]:
    """Follow the saved V arrays from (n, m) back to (0, 0): the matched (x, y), in increasing order."""
    matched: list[tuple[int, int]] = []  # collected backwards
    x, y = n, m
    for d in range(len(trace) - 1, -1, -1):
        v = trace[d]
        k = x - y
        down = k == -d or (k != d and v[k - 1 + d + 1] < v[k + 1 + d + 1])
        prev_k = k + 1 if down else k - 1
        prev_x = v[prev_k + d + 1]
        prev_y = prev_x - prev_k
        while x > prev_x and y > prev_y:
            x, y = x - 1, y - 1
            matched.append((x, y))
        if d > 0:
            x, y = prev_x, prev_y
    return matched[::-1]


def _encode(matched: list[tuple[int, int]], b_lo: int, b_hi: int, a_lo: int, a_hi: int) -> list[Block]:
    """The canonical blocks of matched pairs (increasing on both sides) over b[b_lo:b_hi] vs a[a_lo:a_hi]."""
    blocks: list[Block] = []
    b_at, a_at = b_lo, a_lo
    for i, j, n in _stretches(matched):
        _append(blocks, Block(False, b_at, i - b_at, a_at, j - a_at))
        _append(blocks, Block(True, i, n, j, n))
        b_at, a_at = i + n, j + n
    _append(blocks, Block(False, b_at, b_hi - b_at, a_at, a_hi - a_at))
    return blocks
