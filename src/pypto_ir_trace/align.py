"""Two pass sequences aligned by pass name and order: a longest common subsequence over the names.

An inserted, removed or repeated pass then costs one row on one side instead of shifting every row after
it. Rows are (a index or None, b index or None), in order; each index of either sequence appears exactly
once, and the matched rows pair equal names, increasing on both sides, as many as any alignment can.

Tie-breaking, so that the same two pipelines always give the same rows: the common prefix and the
common suffix are matched as they stand; in between, walking from the front, a pair of equal names is
matched as soon as matching it still allows a longest alignment; otherwise the row of `a` comes first
when skipping it still allows one, else the row of `b`. So within a gap `a`'s unmatched passes are
listed before `b`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Row = tuple[int | None, int | None]


def align(a: Sequence[str], b: Sequence[str]) -> list[Row]:
    """The aligned rows of two name sequences (see the module docstring for which of the longest)."""
    lo = 0
    while lo < len(a) and lo < len(b) and a[lo] == b[lo]:
        lo += 1
    tail = 0
    while tail < len(a) - lo and tail < len(b) - lo and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    rows: list[Row] = [(i, i) for i in range(lo)]
    rows += [
        (lo + i if i is not None else None, lo + j if j is not None else None)
        for i, j in _middle(a[lo : len(a) - tail], b[lo : len(b) - tail])
    ]
    rows += [(len(a) - tail + k, len(b) - tail + k) for k in range(tail)]
    return rows


def _middle(a: Sequence[str], b: Sequence[str]) -> list[Row]:
    n, m = len(a), len(b)
    longest = _suffix_lcs(a, b)  # longest(i, j): the longest common subsequence of a[i:] and b[j:]
    rows: list[Row] = []
    i = j = 0
    while i < n and j < m:
        here = longest(i, j)
        if a[i] == b[j] and here == longest(i + 1, j + 1) + 1:
            rows.append((i, j))
            i, j = i + 1, j + 1
        elif longest(i + 1, j) == here:
            rows.append((i, None))
            i += 1
        else:
            rows.append((None, j))
            j += 1
    rows += [(k, None) for k in range(i, n)]
    rows += [(None, k) for k in range(j, m)]
    return rows


def _suffix_lcs(a: Sequence[str], b: Sequence[str]) -> Callable[[int, int], int]:
    """longest(i, j), the length of the longest common subsequence of a[i:] and b[j:], from a table of one row
    per i, each an integer of len(b) bits (bit-parallel LCS, Hyyro 2004; here on the reversed sequences, so
    that prefixes are suffixes). A zero bit of row k at position p says that b's last p + 1 items share one
    more item with a's last k than its last p do: longest(i, j) is the zero bits of row n - i below m - j.
    Two runs of lz4.c (10,608 and 10,296 passes) took a table of 109 million cells, 875 MB and half a
    minute; these rows are 13 MB."""
    n, m = len(a), len(b)
    ones = (1 << m) - 1
    where: dict[str, int] = {}  # a name -> the bits of its positions in reversed b
    for p, name in enumerate(reversed(b)):
        where[name] = where.get(name, 0) | 1 << p
    rows = [ones]
    for name in reversed(a):
        v = rows[-1]
        u = v & where.get(name, 0)
        rows.append(((v + u) | (v - u)) & ones)

    def longest(i: int, j: int) -> int:
        below = (1 << (m - j)) - 1
        return (m - j) - (rows[n - i] & below).bit_count()

    return longest
