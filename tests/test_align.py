"""align.py: pass sequences aligned by name, checked against an independent dynamic-programming oracle."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pypto_ir_trace.align import align

NAMES = st.lists(st.sampled_from("ABCDS"), max_size=14)


def lcs_length(a, b) -> int:
    """The textbook prefix table, independent of align's suffix table and trimming."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a, 1):
        for j, y in enumerate(b, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if x == y else max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def test_an_inserted_pass_shifts_nothing_after_it():
    base = ["Inline", "SSA", "InitMemRef", "Fold", "Simplify"]
    this = ["Inline", "SSA", "InitMemRef", "Allocate", "Fold", "Simplify"]
    assert align(this, base) == [(0, 0), (1, 1), (2, 2), (3, None), (4, 3), (5, 4)]


def test_a_removed_and_a_repeated_pass():
    assert align(["A", "S", "B", "S"], ["A", "B", "S"]) == [(0, 0), (1, None), (2, 1), (3, 2)]
    assert align(["A", "B"], ["A", "C", "B"]) == [(0, 0), (None, 1), (1, 2)]


def test_within_a_gap_the_first_sequence_comes_first():
    assert align(["A", "X", "B"], ["A", "Y", "B"]) == [(0, 0), (1, None), (None, 1), (2, 2)]


def test_empty_and_disjoint():
    assert align([], []) == []
    assert align(["A"], []) == [(0, None)]
    assert align([], ["A", "B"]) == [(None, 0), (None, 1)]
    assert align(["A"], ["B"]) == [(0, None), (None, 0)]


@settings(max_examples=400, deadline=None)
@given(NAMES, NAMES)
def test_alignment_is_monotone_complete_and_maximal(a, b):
    rows = align(a, b)
    assert [i for i, _ in rows if i is not None] == list(range(len(a)))  # each once, in order
    assert [j for _, j in rows if j is not None] == list(range(len(b)))
    matched = [(i, j) for i, j in rows if i is not None and j is not None]
    assert all(a[i] == b[j] for i, j in matched)
    assert len(matched) == lcs_length(a, b)
    assert align(a, b) == rows  # deterministic


def walked(a, b) -> list:
    """The module docstring's rows, walked over the whole suffix table (a cell per pair of positions): the
    specification, at the cost align.py avoids (two runs of lz4.c: 109 million cells, 875 MB)."""
    lo = 0
    while lo < len(a) and lo < len(b) and a[lo] == b[lo]:
        lo += 1
    tail = 0
    while tail < len(a) - lo and tail < len(b) - lo and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    x, y = a[lo : len(a) - tail], b[lo : len(b) - tail]
    n, m = len(x), len(y)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if x[i] == y[j] else max(table[i + 1][j], table[i][j + 1])
    rows, i, j = [(k, k) for k in range(lo)], 0, 0
    while i < n and j < m:
        if x[i] == y[j] and table[i][j] == table[i + 1][j + 1] + 1:
            rows.append((lo + i, lo + j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] == table[i][j]:
            rows.append((lo + i, None))
            i += 1
        else:
            rows.append((None, lo + j))
            j += 1
    rows += [(lo + k, None) for k in range(i, n)] + [(None, lo + k) for k in range(j, m)]
    return rows + [(len(a) - tail + k, len(b) - tail + k) for k in range(tail)]


@settings(max_examples=600, deadline=None)
@given(NAMES, NAMES)
def test_the_rows_are_those_the_specification_walks_to(a, b):
    assert align(a, b) == walked(a, b)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from("ABCDEFGHIJKLMNOP"), min_size=300, max_size=600), st.randoms(use_true_random=False))
def test_long_pipelines_align_as_the_specification_walks(a, random):
    """Long pipelines, the second a copy with passes dropped, added and renamed: rows past 64 bits a word."""
    b = [name for name in a if random.random() > 0.1]
    for _ in range(30):
        b.insert(random.randrange(len(b) + 1), random.choice("ABCDEFGHIJKLMNOPQ"))
    assert align(a, b) == walked(a, b)


@settings(max_examples=100, deadline=None)
@given(NAMES)
def test_identical_sequences_match_row_for_row(a):
    assert align(a, a) == [(i, i) for i in range(len(a))]
