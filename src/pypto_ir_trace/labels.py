"""How the two runs of a comparison are named wherever a reader meets them (a two-run report's header and its
summaries, the notes on stderr, the index page of many programs): as the user named them (`--label`,
`--baseline-label`), else by their titles when those differ, else by the part of their paths that differs:
`runB/qwen3/passes_dump` against `real/qwen3/passes_dump` are "runB" and "real", not "qwen3/passes_dump" twice."""

from __future__ import annotations

from pathlib import Path

Given = tuple[str | None, str | None]  # the user's names for this run and the baseline (None: not given)


def run_labels(titles: tuple[str, str], paths: tuple[Path, Path], given: Given = (None, None)) -> tuple[str, str]:
    """The two runs' names: given, else their titles if they differ, else the parts of the paths that differ."""
    found = titles if titles[0] != titles[1] else differing_parts(*paths) or titles
    return given[0] or found[0], given[1] or found[1]


def differing_parts(this: Path, baseline: Path) -> tuple[str, str] | None:
    """What is left of two paths (resolved) once the parts they share at their end and at their start are
    dropped; a path with nothing left is named by the folder holding the shared end. None: the same path."""
    ours, theirs = this.resolve().parts, baseline.resolve().parts
    if ours == theirs:
        return None
    end = 0  # parts shared at the end
    while end < min(len(ours), len(theirs)) - 1 and ours[-1 - end] == theirs[-1 - end]:
        end += 1
    head_ours, head_theirs = ours[: len(ours) - end], theirs[: len(theirs) - end]
    start = 0  # parts shared at the start
    while start < min(len(head_ours), len(head_theirs)) and head_ours[start] == head_theirs[start]:
        start += 1
    return _named(head_ours, start), _named(head_theirs, start)


def _named(head: tuple[str, ...], start: int) -> str:
    rest = head[start:]
    return "/".join(rest) if rest else head[start - 1]
