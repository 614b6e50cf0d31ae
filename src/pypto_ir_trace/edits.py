"""What a compiler change did across programs: each program's two runs told by one edit, and programs grouped
by the same edit (README, "Many programs").

A program's edit is where its runs first part as an edit: the first pass whose effect differs (effect.py,
Pass effect), told by what the two runs' edits there differ by (effect.changes: `pl.tile.exp` ->
`pl.tile.exp2`), with the runs' names already mapped as Pass effect maps them. Runs whose passes all had the
same effect yet differ were given different inputs (the edit is how the inputs differ), or one runs a pass the
other does not. Two programs make the same edit when the pass (by name, and which run of it) and those
changes are the same: their `key`. Pure: a two-run Report in, an Edit out; JSON entries in, groups out.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .model import Report, RunRow
from .structure import numbered

SHOWN = 3  # changes a description names; the rest are counted
SHOWN_CHARACTERS = 60  # of a line only one run's edit has, in a description


@dataclass(frozen=True)
class Edit:
    """One program's edit: where (its pass, as its report labels it), what it changes, and its grouping key."""

    at: str  # "11 ConvertTensorToTileOps", or "input"
    changes: tuple[tuple[str, str], ...]  # (the baseline's words, this run's); a line one run lacks: ""
    key: str
    only: str = ""  # the run that alone runs the pass where the runs part ("this run", "the baseline"), else ""

    def description(self) -> str:
        """The edit in one line: its changes and where (`a` -> `b` at 11 Pass), how the inputs differ, or which
        run alone runs the pass where they part."""
        if self.only:
            return f"only {self.only} runs {self.at}"
        told = "; ".join(describe(change) for change in self.changes[:SHOWN]) or "the same lines, edited apart"
        more = len(self.changes) - SHOWN
        told += f"; {more} more" if more > 0 else ""
        return f"the inputs differ: {told}" if self.at == "input" else f"{told} at {self.at}"

    def to_json(self) -> dict:
        return {
            "pass": self.at,
            "description": self.description(),
            "changes": [list(change) for change in self.changes[:SHOWN]],
            "more": max(len(self.changes) - SHOWN, 0),
            "key": self.key,
        }


def describe(change: tuple[str, str]) -> str:
    """One change in words: `old` -> `new`, or a line only one run's edit has."""
    old, new = change
    if old and new:
        return f"`{old}` -> `{new}`"
    line = old or new
    cut = line if len(line) <= SHOWN_CHARACTERS else line[: SHOWN_CHARACTERS - 1] + "…"
    return f"{'only the baseline has' if old else 'only this run has'} `{cut}`"


def of_report(report: Report) -> Edit | None:
    """The program's edit, or None when its two runs never differ."""
    runs = report.runs
    assert runs is not None  # a report of two runs
    if runs.first_divergent is None and runs.inputs.identical:
        return None
    ours, theirs = report.pipelines[runs.this], report.pipelines[runs.baseline]
    names = numbered(_name(ours, theirs, row) for row in runs.rows)  # "Simplify#2": which run of a pass
    at = next((r for r, row in enumerate(runs.rows) if row.same_effect is False), None)
    if at is not None:
        return _edit(_label(ours, theirs, runs.rows[at]), names[at], runs.rows[at].changes)
    if not runs.inputs.identical:
        return _edit("input", "input", runs.inputs.changes)
    first = runs.first_divergent
    assert first is not None
    row = runs.rows[first]
    only = "this run" if row.baseline is None else "the baseline"
    return Edit(_label(ours, theirs, row), (), _key(names[first], ("only", only)), only)


def _edit(at: str, name: str, changes: tuple[tuple[str, str], ...]) -> Edit:
    return Edit(at, changes, _key(name, *changes))


def _key(name: str, *changes: tuple[str, str]) -> str:
    """What two programs' edits share when they are the same edit, as a short digest (shards compare it)."""
    text = json.dumps([name, changes], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _name(ours, theirs, row: RunRow) -> str:
    return (ours.passes[row.this] if row.this is not None else theirs.passes[row.baseline]).name


def _label(ours, theirs, row: RunRow) -> str:
    """A row as the two-run page's pass list labels it (a baseline-only row: `b` before its label)."""
    if row.this is not None:
        mine = ours.passes[row.this]
        return f"{mine.label} {mine.name}"
    other = theirs.passes[row.baseline]
    return f"b{other.label} {other.name}"


@dataclass(frozen=True)
class Group:
    """Programs that make one edit: the edit as the first of them tells it, and their names in name order."""

    edit: dict  # Edit.to_json() of its first program
    programs: tuple[str, ...]


def groups(entries: Iterable[tuple[str, dict | None]]) -> list[Group]:
    """(program name, its edit's JSON or None) -> the groups of the same key, largest first, then by name."""
    found: dict[str, tuple[dict, list[str]]] = {}
    for name, edit in sorted(entries, key=lambda entry: entry[0]):
        if edit is not None:
            found.setdefault(edit["key"], (edit, []))[1].append(name)
    ordered = sorted(found.values(), key=lambda group: (-len(group[1]), group[1][0]))
    return [Group(edit, tuple(names)) for edit, names in ordered]


def to_json(found: Sequence[Group]) -> list[dict]:
    """Groups as the summary lists them: each group's edit and its programs."""
    return [{"edit": group.edit, "programs": list(group.programs)} for group in found]
