"""A pass's effect in two runs compared as an edit: which of its hunks make the same edit in both runs.

Why. Two runs that already differ before a pass print different text after it even when the pass did
exactly the same thing in both (a pass that adds a memory annotation to every tile line adds it to
`tile.exp2` in one run and to `tile.exp` in the other). Comparing the printed lines says "different";
comparing the edit, with the lines the runs already disagreed on read as the baseline's, says "the same".

Definition (README, "Two runs"). Each run's diff of the pass is cut into hunks: maximal runs of changed
blocks with no equal line between them, in the diff's order (the changes `n` / `p` step through). A line of
this run is *read as* the baseline's line facing it in the runs' diff (Across runs: equal lines face each
other; in a changed block the k-th deleted line faces the k-th inserted line):
- in the pass's input, always: the runs already disagreed there;
- in the pass's output, only when the two lines are equal or differ exactly as a pair of facing lines of the
  inputs differed (`words`: the same words replaced by the same words, in order, e.g. `exp` -> `exp2`);
- a line facing none is read as itself.
A hunk of this run faces a hunk of the baseline when they start at the same line of the baseline's input
(this run's start read through the inputs' lineup; an insertion point after the last facing line before it).
Two facing hunks make the same edit when their deleted lines and their inserted lines, so read, are the
same lines in the same order. The pass had the same effect when every hunk of either run faces one that
makes the same edit.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from . import linediff

TOKEN = re.compile(r"\w+|\s+|[^\w\s]")  # words, runs of blanks, single signs
NAMED = re.compile(r"[\w.]+|\s+|[^\w\s]")  # the same, dotted names whole (`pl.tile.exp`): how a change is told
MAX_CHANGES = 200  # an edit's distinct word changes kept: enough to tell two edits apart, bounded for a huge pass


def words(old: str, new: str, token: re.Pattern = TOKEN) -> tuple[tuple[str, str], ...]:
    """How line `new` differs from `old`, word by word: the replaced stretches (old words, new words), in order."""
    before, after = token.findall(old), token.findall(new)
    return tuple(
        ("".join(before[b.b_start : b.b_start + b.b_len]), "".join(after[b.a_start : b.a_start + b.a_len]))
        for b in linediff.diff(before, after)
        if not b.equal
    )


@dataclass
class Lineup:
    """Two texts of the runs lined up by their diff: for each line of this run's text, the baseline's line
    facing it (-1: none), and which of those pairs differ."""

    partner: list[int]
    differs: set[int]  # this run's lines whose partner is another line
    known: set[tuple[tuple[str, str], ...]] | None = field(default=None)  # the pairs' word differences, when asked

    @classmethod
    def same(cls, length: int) -> Lineup:
        """Byte-identical texts: every line faces itself."""
        return cls(list(range(length)), set())

    @classmethod
    def of(cls, pieces, length: int) -> Lineup:
        """From a diff of the baseline's text (before) against this run's (after): its pieces' segments."""
        partner = [-1] * length
        differs: set[int] = set()
        for piece in pieces:
            for segment in piece.segments:
                b, a = segment[0], segment[1]
                for at in range(2, len(segment), 3):
                    equal, deleted, inserted = segment[at : at + 3]
                    partner[a : a + equal] = range(b, b + equal)
                    b, a = b + equal, a + equal
                    paired = min(deleted, inserted)
                    partner[a : a + paired] = range(b, b + paired)
                    differs.update(range(a, a + paired))
                    b, a = b + deleted, a + inserted
        return cls(partner, differs)

    def anchor(self, line: int) -> int:
        """Where this run's line (or insertion point) `line` stands in the baseline's text."""
        if line < len(self.partner) and self.partner[line] >= 0:
            return self.partner[line]
        for earlier in range(min(line, len(self.partner)) - 1, -1, -1):
            if self.partner[earlier] >= 0:
                return self.partner[earlier] + 1
        return 0


@dataclass(frozen=True)
class Hunk:
    start: int  # the before line where it starts (its first deleted line, or where it inserts)
    deleted: list[int]  # before lines
    inserted: list[int]  # after lines


def hunks(pieces) -> list[Hunk]:
    """A pass's diff (pieces with segments, model or compare) as hunks, in the diff's order."""
    found: list[Hunk] = []
    joined = False  # whether the next change joins the last hunk: no equal line came between
    for piece in pieces:
        for segment in piece.segments:
            b, a = segment[0], segment[1]
            for at in range(2, len(segment), 3):
                equal, deleted, inserted = segment[at : at + 3]
                joined = joined and not equal
                b, a = b + equal, a + equal
                if deleted or inserted:
                    if not joined:
                        found.append(Hunk(b, [], []))
                    found[-1].deleted.extend(range(b, b + deleted))
                    found[-1].inserted.extend(range(a, a + inserted))
                    joined = True
                b, a = b + deleted, a + inserted
    return found


@dataclass(frozen=True)
class Side:
    """One run's pass: its hunks and the line ids of its input and output."""

    hunks: list[Hunk]
    before: Sequence[int]
    after: Sequence[int]


@dataclass(frozen=True)
class Verdict:
    same: bool
    # (this run's hunk, the baseline's hunk), -1 for a hunk facing none, in the order of where they stand in the
    # baseline's input: the steps of n / p; () when hunk k faces hunk k for every k
    facing: tuple[tuple[int, int], ...]
    differing: tuple[int, ...]  # the steps whose hunks make different edits
    # each differing step's output in either run, read as the baseline's: (the baseline's line ids, this run's);
    # a run whose pass left those lines alone gives them as they stayed
    outputs: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()
    # the pairs of facing input lines that differ, (the baseline's id, this run's), when some step differs: what the
    # runs already disagreed on is no part of how the pass's edits differ (at most KNOWN_PAIRS of them)
    known: tuple[tuple[int, int], ...] = ()


KNOWN_PAIRS = 5_000


def changes(verdict: Verdict, text: Callable[[int], str]) -> tuple[tuple[str, str], ...]:
    """How the runs' outputs of a pass's differing edits differ, once each, in order: for each pair of facing
    lines the names and words that differ (`pl.tile.exp` -> `pl.tile.exp2`) but those the runs' inputs already
    differed by, a line only one run has as (line, "") for the baseline's or ("", line) for this run's; at most
    MAX_CHANGES of them."""
    known = {pair for old, new in verdict.known for pair in _named(old, new, text)}
    return told_apart(verdict.outputs, text, known)


def told_apart(
    outputs: Sequence[tuple[Sequence[int], Sequence[int]]], text: Callable[[int], str], known: Collection = ()
) -> tuple[tuple[str, str], ...]:
    """changes() of facing output lines, the word changes in `known` left out."""
    found: dict[tuple[str, str], None] = {}
    for old, new in outputs:
        for k in range(max(len(old), len(new))):
            if k < len(old) and k < len(new):
                told = tuple(pair for pair in _named(old[k], new[k], text) if pair not in known)
            else:
                told = ((text(old[k]).strip(), ""),) if k < len(old) else (("", text(new[k]).strip()),)
            found.update(dict.fromkeys(told))
            if len(found) >= MAX_CHANGES:
                return tuple(found)[:MAX_CHANGES]
    return tuple(found)


def _named(old: int, new: int, text: Callable[[int], str]) -> tuple[tuple[str, str], ...]:
    return words(text(old), text(new), NAMED)


Words = Callable[[int, int], tuple[tuple[str, str], ...]]  # (baseline line id, this run's line id) -> words()


def compare(ours: Side, theirs: Side, inputs: Lineup, outputs: Lineup, differ: Words) -> Verdict:
    """The pass of this run (`ours`) against the baseline's, its input and output lined up (the module's definition)."""

    def known() -> set:
        if inputs.known is None:
            inputs.known = {differ(theirs.before[inputs.partner[t]], ours.before[t]) for t in inputs.differs}
        return inputs.known

    def read_in(t: int) -> int:
        return theirs.before[inputs.partner[t]] if inputs.partner[t] >= 0 else ours.before[t]

    def read_out(t: int) -> int:
        p = outputs.partner[t]
        if p < 0 or (t in outputs.differs and differ(theirs.after[p], ours.after[t]) not in known()):
            return ours.after[t]
        return theirs.after[p]

    def same_edit(mine: Hunk, other: Hunk) -> bool:
        return [read_in(t) for t in mine.deleted] == [theirs.before[b] for b in other.deleted] and [
            read_out(t) for t in mine.inserted
        ] == [theirs.after[a] for a in other.inserted]

    waiting: dict[int, deque[int]] = {}  # the baseline's hunks by where they start
    for k, hunk in enumerate(theirs.hunks):
        waiting.setdefault(hunk.start, deque()).append(k)
    placed: list[tuple[int, int, int, int, bool]] = []  # (where, order, this hunk, baseline hunk, same)
    for k, hunk in enumerate(ours.hunks):
        where = inputs.anchor(hunk.start)
        other = waiting[where].popleft() if waiting.get(where) else -1
        placed.append((where, 0, k, other, other >= 0 and same_edit(hunk, theirs.hunks[other])))
    for queue in waiting.values():
        placed += [(theirs.hunks[k].start, 1, -1, k, False) for k in queue]
    placed.sort(key=lambda entry: entry[:4])
    facing = tuple((mine, other) for _, _, mine, other, _ in placed)
    differing = tuple(step for step, entry in enumerate(placed) if not entry[4])
    identity = len(ours.hunks) == len(theirs.hunks) and all(mine == other for mine, other in facing)

    def output(k: int, other: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A step's output lines in either run; a run without a hunk there kept the other's input lines."""
        if k < 0:
            base = theirs.hunks[other]
            return tuple(theirs.after[a] for a in base.inserted), tuple(theirs.before[b] for b in base.deleted)
        mine = tuple(read_out(t) for t in ours.hunks[k].inserted)
        if other < 0:
            return tuple(read_in(t) for t in ours.hunks[k].deleted), mine
        return tuple(theirs.after[a] for a in theirs.hunks[other].inserted), mine

    told = tuple(output(*facing[step]) for step in differing)
    disagreed = ((theirs.before[inputs.partner[t]], ours.before[t]) for t in inputs.differs) if differing else ()
    return Verdict(
        not differing, () if identity else facing, differing, told, tuple(itertools.islice(disagreed, KNOWN_PAIRS))
    )
