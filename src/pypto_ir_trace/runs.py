"""Two runs of one program compared pass by pass: the passes aligned by name, each row's snapshots diffed.

Pure: it reads the built pipelines and their working texts (anything with `ids`, `structure` and
`digest`: builder._Working), and returns the model's Runs section. Which changed lines are renamed ones
is asked of the caller (`renamed`), which knows the texts' value names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import compare
from .align import align
from .model import Pipeline, RunRow, Runs

Renamed = Callable[..., tuple[tuple[int, int], ...]]  # (old text, new text, their diff) -> renamed line pairs


def section(
    pipelines: Sequence[Pipeline],
    texts: Sequence[Sequence],
    this: int,
    baseline: int,
    renamed: Renamed = lambda old, new, diff: (),
) -> Runs:
    """The runs section of pipelines[this] against pipelines[baseline]; texts[i]: pipeline i's working texts."""
    ours, theirs = pipelines[this], pipelines[baseline]
    ours_texts, theirs_texts = texts[this], texts[baseline]
    counted: dict[tuple[int, int], RunRow] = {}
    memo: compare.Memo = {}  # consecutive rows differ by a pass or two: most pairs of functions were diffed

    def row(in_ours: int | None, in_theirs: int | None, at_ours: int, at_theirs: int) -> RunRow:
        if (at_ours, at_theirs) not in counted:  # consecutive no-op passes share one pair of snapshots
            new, old = ours_texts[at_ours], theirs_texts[at_theirs]
            if new.digest == old.digest:
                counted[at_ours, at_theirs] = RunRow(None, None, True, 0, 0)
            else:
                found = compare.diff_pass(old.ids, old.structure, new.ids, new.structure, memo=memo)
                pairs = renamed(old, new, found)
                counted[at_ours, at_theirs] = RunRow(None, None, False, found.inserted, found.deleted, pairs)
        same = counted[at_ours, at_theirs]
        return RunRow(in_ours, in_theirs, same.identical, same.inserted, same.deleted, same.renamed)

    at_ours = at_theirs = 0  # each run's current snapshot: its input, then the text after its latest pass
    inputs = row(None, None, 0, 0)
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
