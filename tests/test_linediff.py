"""The line diff: exact, minimal where it matters, and linear in the size of the change."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from diffcases import common_ends
from pypto_ir_trace import linediff


def rebuild(b, a, blocks):
    """Check that blocks cover both sides in order and that equal blocks are equal; return the after side a rebuilt."""
    out, i, j = [], 0, 0
    for block in blocks:
        assert (block.b_start, block.a_start) == (i, j)
        if block.equal:
            assert b[i : i + block.b_len] == a[j : j + block.a_len]
        out += a[j : j + block.a_len]
        i, j = i + block.b_len, j + block.a_len
    assert (i, j) == (len(b), len(a))
    return out


def lcs_length(b, a) -> int:
    """Length of a longest common subsequence, by dynamic programming: the oracle for minimality."""
    previous = [0] * (len(a) + 1)
    for x in b:
        current = [0]
        for j, y in enumerate(a):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def changed(blocks):
    return sum(d.b_len for d in blocks if not d.equal), sum(d.a_len for d in blocks if not d.equal)


@pytest.mark.parametrize(
    "b, a, expected",
    [
        ([], [], (0, 0)),
        ([1, 2, 3], [1, 2, 3], (0, 0)),
        ([1, 2, 3], [1, 3], (1, 0)),
        ([1, 3], [1, 2, 3], (0, 1)),
        ([1, 2, 3], [1, 9, 3], (1, 1)),
        ([1, 1, 1], [1, 1], (1, 0)),
        ([1, 2, 1, 2], [2, 1, 2, 1], (1, 1)),
    ],
)
def test_small_cases_are_minimal(b, a, expected):
    blocks = linediff.diff(b, a)
    assert rebuild(b, a, blocks) == a
    assert changed(blocks) == expected


def test_random_edits_rebuild_exactly_and_alternate():
    rng = random.Random(7)
    for _ in range(2000):
        b = [rng.randint(0, 6) for _ in range(rng.randint(0, 40))]
        a = list(b)
        for _ in range(rng.randint(0, 10)):
            at = rng.randint(0, len(a))
            if rng.random() < 0.4 and a[at:]:
                del a[at]
            else:
                a.insert(at, rng.randint(0, 9))
        blocks = linediff.diff(b, a)
        assert rebuild(b, a, blocks) == a
        assert all(x.equal != y.equal for x, y in itertools.pairwise(blocks))


def anchorless(b, a) -> bool:
    """Whether diff() goes straight to Myers: once the common prefix and suffix are trimmed, no item occurs
    exactly once in each middle (the spec's step 3 finds no anchor)."""
    p, s = common_ends(b, a)
    b_mid, a_mid = Counter(b[p : len(b) - s]), Counter(a[p : len(a) - s])
    return not any(n == 1 and a_mid[item] == 1 for item, n in b_mid.items())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=12), st.lists(st.integers(0, 3), max_size=12))
def test_a_gap_without_anchors_is_diffed_minimally(b, a):
    """Myers' rounds give a shortest edit script: the lines kept equal are as many as a longest common subsequence
    has (an oracle by dynamic programming). A diff that breaks ties the other way is still valid but longer."""
    assume(anchorless(b, a))
    blocks = linediff.diff(b, a)
    assert rebuild(b, a, blocks) == a
    assert sum(block.b_len for block in blocks if block.equal) == lcs_length(b, a)


def test_moved_block_keeps_the_unique_lines_anchored():
    b = [f"line {i}" for i in range(50)]
    a = b[:10] + b[30:40] + b[10:30] + b[40:]
    blocks = linediff.diff(b, a)
    assert rebuild(b, a, blocks) == a
    assert changed(blocks) == (10, 10)  # one block of ten moved: the other twenty stay


class CountingList(list):
    """A list that counts element reads: the diff's work, measured without a clock."""

    reads = 0

    def __getitem__(self, index):
        CountingList.reads += 1
        return super().__getitem__(index)


def test_cost_follows_the_change_not_the_file():
    """200,000 lines with three edits: a few reads per line, not the square of the file."""
    b = [f"x{i} = pl.tile.load(t{i % 97})" for i in range(200_000)]
    a = list(b)
    a[1000] = "changed"
    a.insert(150_000, "inserted")
    del a[199_000]
    CountingList.reads = 0
    blocks = linediff.diff(CountingList(b), CountingList(a))
    assert CountingList.reads < 8 * (len(b) + len(a))
    assert rebuild(b, a, blocks) == a
    assert changed(blocks) == (2, 2)


def test_anchorless_pathological_gap_degrades_to_one_replacement():
    b = [i % 2 for i in range(400)]
    a = [(i + 1) % 3 for i in range(400)]
    common = lcs_length(b, a)
    assert changed(linediff.diff(b, a)) == (400 - common, 400 - common)  # within the default cap: minimal
    blocks = linediff.diff(b, a, {"myers_max_cost": 1000})
    assert rebuild(b, a, blocks) == a
    # both end in 0, 1: that suffix is trimmed, the rest has no anchor and is given up as one block
    assert blocks == [linediff.Block(False, 0, 398, 0, 398), linediff.Block(True, 398, 2, 398, 2)]


def test_the_cap_gives_up_only_on_its_own_gap():
    """Anchors split the input; a gap too costly for the cap becomes one block, its neighbours still diff."""
    noise_b, noise_a = [i % 2 for i in range(60)], [(i + 1) % 3 for i in range(60)]
    b = ["head", 7, 8, 9, *noise_b, "middle", 1, 2, 3]
    a = ["head", 7, 9, *noise_a, "middle", 1, 3]
    blocks = linediff.diff(b, a, {"myers_max_cost": 200})
    assert rebuild(b, a, blocks) == a
    assert linediff.Block(False, 4, 60, 3, 60) in blocks
    assert changed(blocks) == (62, 60)


def test_limits_are_exported_for_the_page():
    assert linediff.LIMITS == {"myers_max_cost": 2_000_000}


def test_a_renumbered_function_costs_the_lines_its_sides_share():
    """A renumbered function: nearly every line is on one side only and can never be matched, so Myers runs on
    the blank lines the sides share (a minimal diff, as GNU diff finds it), at a few reads per line, where
    the whole gap would have cost the cap and given up."""
    b = ["" if i % 10 == 0 else f"  %{i} = add i32 %{i - 1}, 1" for i in range(2000)]
    a = ["" if i % 10 == 0 else f"  %{i + 5000} = add i32 %{i + 4999}, 1" for i in range(2000)]
    CountingList.reads = 0
    blocks = linediff.diff(CountingList(b), CountingList(a))
    assert CountingList.reads < 8 * (len(b) + len(a))
    assert rebuild(b, a, blocks) == a
    assert [block.b_start for block in blocks if block.equal] == list(range(0, 2000, 10))
    assert changed(blocks) == (1800, 1800)


def test_a_gap_the_cap_cannot_finish_is_given_up_at_once():
    """When the shared items are too many for the cap, as the multiset count of them already tells, the rounds
    are not run: the gap is one changed block, the answer the rounds would give, at a few reads per line."""
    b = [i % 2 for i in range(3000)]
    a = [(i % 3) // 2 for i in range(3000)]  # 0, 0, 1, ...: two thirds zeros where b has half
    CountingList.reads = 0
    blocks = linediff.diff(CountingList(b), CountingList(a), {"myers_max_cost": 100_000})
    # the common prefix (0) and suffix (0, 1) are trimmed; the middle has no anchor and is given up
    middle = linediff.Block(False, 1, 2997, 1, 2997)
    assert blocks == [linediff.Block(True, 0, 1, 0, 1), middle, linediff.Block(True, 2998, 2, 2998, 2)]
    assert CountingList.reads < 8 * (len(b) + len(a))
