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

from collections.abc import Sequence

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
    # longest[i][j]: the longest common subsequence of a[i:] and b[j:]
    longest = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = longest[i], longest[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    rows: list[Row] = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j] and longest[i][j] == longest[i + 1][j + 1] + 1:
            rows.append((i, j))
            i, j = i + 1, j + 1
        elif longest[i + 1][j] == longest[i][j]:
            rows.append((i, None))
            i += 1
        else:
            rows.append((None, j))
            j += 1
    rows += [(k, None) for k in range(i, n)]
    rows += [(None, k) for k in range(j, m)]
    return rows
