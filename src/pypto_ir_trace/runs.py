"""Two runs of one program compared pass by pass: the passes aligned by name, each row's snapshots diffed,
and each pass's effect in the two runs compared as an edit (effect.py).

Pure: it reads the built pipelines and their working texts (anything with `ids`, `structure` and
`digest`: builder._Working), and returns the model's Runs section. Which changed lines are renamed ones
is asked of the caller (`renamed`), which knows the texts' value names; the lines' texts (`lines`, by id)
are read only to compare two lines word by word.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace

from . import compare, effect, opcounts
from .align import align
from .model import Pass, Pipeline, RunRow, Runs

Renamed = Callable[..., tuple[tuple[int, int], ...]]  # (old text, new text, their diff) -> renamed line pairs


def section(
    pipelines: Sequence[Pipeline],
    texts: Sequence[Sequence],
    this: int,
    baseline: int,
    renamed: Renamed = lambda old, new, diff: (),
    lines: Sequence[str] = (),
    ops: Sequence[tuple[str, ...]] = (),
) -> Runs:
    """The runs section of pipelines[this] against pipelines[baseline]; texts[i]: pipeline i's working texts;
    lines: the report's lines by id; ops: line id -> the ops it runs (languages that name them)."""
    ours, theirs = pipelines[this], pipelines[baseline]
    ours_texts, theirs_texts = texts[this], texts[baseline]
    counted: dict[tuple[int, int], RunRow] = {}
    memo: compare.Memo = {}  # consecutive rows differ by a pass or two: most pairs of functions were diffed
    effects = _Effects(ours_texts, theirs_texts, memo, lines)

    def row(in_ours: int | None, in_theirs: int | None, at_ours: int, at_theirs: int) -> RunRow:
        if (at_ours, at_theirs) not in counted:  # consecutive no-op passes share one pair of snapshots
            new, old = ours_texts[at_ours], theirs_texts[at_theirs]
            found = effects.across(at_ours, at_theirs)
            if found is None:
                counted[at_ours, at_theirs] = RunRow(None, None, True, 0, 0)
            else:
                pairs = renamed(old, new, found)
                by_region = tuple((key, ins, dels) for key, (ins, dels) in sorted(found.by_region.items()))
                segments = [piece.segments for piece in found.pieces]
                differ = opcounts.deltas(segments, old.ids, found.inserted_ids, ops) if ops else ()
                counted[at_ours, at_theirs] = RunRow(
                    None, None, False, found.inserted, found.deleted, pairs, by_region=by_region, ops=differ
                )
        same = counted[at_ours, at_theirs]
        mine = ours.passes[in_ours] if in_ours is not None else None
        other = theirs.passes[in_theirs] if in_theirs is not None else None
        verdict = effects.verdict(mine, other) if mine and other else None
        changes = effect.changes(verdict, lines.__getitem__) if verdict and lines else ()
        return RunRow(
            in_ours,
            in_theirs,
            same.identical,
            same.inserted,
            same.deleted,
            same.renamed,
            verdict.same if verdict else None,
            verdict.facing if verdict else (),
            verdict.differing if verdict else (),
            same.by_region,
            same.ops,
            changes,
        )

    at_ours = at_theirs = 0  # each run's current snapshot: its input, then the text after its latest pass
    inputs = row(None, None, 0, 0)
    found = effects.across(0, 0)  # the inputs' diff, just made: still kept
    if found is not None and lines:  # how the inputs differ, told as a pass's differing edit is
        old_ids, new_ids = theirs_texts[0].ids, ours_texts[0].ids
        told = [
            (tuple(old_ids[b] for b in hunk.deleted), tuple(new_ids[a] for a in hunk.inserted))
            for hunk in effect.hunks(found.pieces)
        ]
        inputs = replace(inputs, changes=effect.told_apart(told, lines.__getitem__))
    rows = []
    for in_ours, in_theirs in align([p.name for p in ours.passes], [p.name for p in theirs.passes]):
        if in_ours is not None:
            at_ours = ours.passes[in_ours].after
        if in_theirs is not None:
            at_theirs = theirs.passes[in_theirs].after
        rows.append(row(in_ours, in_theirs, at_ours, at_theirs))
    first = next((r for r, found in enumerate(rows) if not found.identical), None)
    before = [inputs.identical] + [found.identical for found in rows[:-1]]
    reconverged = tuple(r for r, found in enumerate(rows) if found.identical and not before[r])
    return Runs(this, baseline, inputs, tuple(rows), first, reconverged)


class _Effects:
    """The runs' texts diffed across (the rows' diffs), and each row's pass compared as an edit (effect.py).

    A pass's effect needs the runs' texts lined up before and after it: the diffs of the last few pairs of
    texts are kept, since a pass's input pair is (in a passes_dump) the previous row's output pair.
    """

    KEPT = 4

    def __init__(self, ours_texts: Sequence, theirs_texts: Sequence, memo: compare.Memo, lines: Sequence[str]):
        self.texts = ours_texts, theirs_texts
        self.memo = memo
        self.lines = lines
        self.kept: OrderedDict[tuple[int, int], list] = OrderedDict()  # pair -> [its diff or None, its lineup]
        self.words: dict[tuple[int, int], tuple] = {}  # (baseline line id, this run's) -> effect.words of them

    def across(self, t_ours: int, t_theirs: int) -> compare.PassDiff | None:
        """The baseline's text t_theirs diffed against this run's t_ours; None when byte-identical."""
        return self._entry(t_ours, t_theirs)[0]

    def _entry(self, t_ours: int, t_theirs: int) -> list:
        key = (t_ours, t_theirs)
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        new, old = self.texts[0][t_ours], self.texts[1][t_theirs]
        found = None
        if new.digest != old.digest:
            found = compare.diff_pass(old.ids, old.structure, new.ids, new.structure, memo=self.memo)
        self.kept[key] = [found, None]
        if len(self.kept) > self.KEPT:
            self.kept.popitem(last=False)
        return self.kept[key]

    def lineup(self, t_ours: int, t_theirs: int) -> effect.Lineup:
        entry = self._entry(t_ours, t_theirs)
        if entry[1] is None:
            length = len(self.texts[0][t_ours].ids)
            entry[1] = effect.Lineup.same(length) if entry[0] is None else effect.Lineup.of(entry[0].pieces, length)
        return entry[1]

    def differ(self, old: int, new: int) -> tuple:
        if (old, new) not in self.words:
            self.words[old, new] = effect.words(self.lines[old], self.lines[new])
        return self.words[old, new]

    def verdict(self, mine: Pass, other: Pass) -> effect.Verdict:
        """This run's pass `mine` against the baseline's `other`."""
        if mine.diff is None and other.diff is None:
            return effect.Verdict(True, (), ())  # neither changed anything
        ours_texts, theirs_texts = self.texts
        if (ours_texts[mine.before].digest, ours_texts[mine.after].digest) == (
            theirs_texts[other.before].digest,
            theirs_texts[other.after].digest,
        ):
            return effect.Verdict(True, (), ())  # the same text made into the same text
        sides = [
            effect.Side(effect.hunks(p.diff.pieces) if p.diff else [], texts[p.before].ids, texts[p.after].ids)
            for p, texts in ((mine, ours_texts), (other, theirs_texts))
        ]
        inputs, outputs = self.lineup(mine.before, other.before), self.lineup(mine.after, other.after)
        return effect.compare(sides[0], sides[1], inputs, outputs, self.differ)
