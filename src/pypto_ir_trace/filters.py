"""What a language's filters may hide (Compiler Explorer's "hide debug info", "hide attributes and metadata"), read
from grammars/<language>/filters.tokens: the page applies them (static/filters.js), to every line of every
snapshot, and diffs the filtered texts; here they are read for the page's data, offered only for a pipeline
whose lines hold something they hide, and applied for the tests.

A filter hides a line whole when one of its `line` patterns matches it, else cuts every match of its `part`
patterns out of it. The patterns of one kind are joined into one pattern, each a group, so that both languages
apply them the same way in one pass over a line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from . import grammar

_FILE = "filters"  # grammars/<language>/filters.tokens


@dataclass(frozen=True)
class LineFilter:
    """One switch of the page: its name in links (`hide=debug`), its words and the patterns it hides."""

    name: str
    label: str  # the switch's words: "Hide debug info"
    title: str  # its tooltip: what it hides
    line: str  # a line matching it is hidden ("" for none)
    part: str  # each match is cut out of the lines kept ("" for none)
    probes: tuple[str, ...] = ()  # its patterns one by one, as offered() searches for them (_probe)


@cache
def of(language: str) -> tuple[LineFilter, ...]:
    """The language's filters in the file's order; none when it has no filters.tokens."""
    entries: dict[str, dict[str, list[str]]] = {}
    for name, what, text in grammar.token_entries(language, _FILE, 3):
        entries.setdefault(name, {}).setdefault(what, []).append(text)
    return tuple(
        LineFilter(
            name,
            " ".join(found.get("label", [])),
            " ".join(found.get("title", [])),
            _joined(found.get("line", [])),
            _joined(found.get("part", [])),
            tuple(_probe(pattern) for pattern in [*found.get("line", []), *found.get("part", [])]),
        )
        for name, found in entries.items()
    )


def _probe(pattern: str) -> str:
    """A pattern that some line of a text matches exactly when it does, searched for in the lines joined with a
    newline before each: one that re searches for fast. re skips ahead only to a literal the pattern starts
    with: a line's start is the newline before it (`^X` is `\nX`), and a leading optional comma (`,? !dbg ...`)
    decides no line's having a match. Over lz4.c's 100 MB: 0.27 s and 0.45 s a pattern before, 0.06 s after."""
    return "\n" + pattern[1:] if pattern.startswith("^") else pattern.removeprefix(",?")


def _joined(patterns: list[str]) -> str:
    return "|".join(f"(?:{pattern})" for pattern in patterns)


@cache
def _compiled(pattern: str) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


def apply(hidden: tuple[LineFilter, ...], line: str) -> str | None:
    """The line as the filters show it (as static/filtered.js filters it): None when a `line` pattern of one of
    them matches it, else with every match of their `part` patterns cut out, in one scan of the line."""
    whole = _compiled(_joined([f.line for f in hidden if f.line]))
    if whole is not None and whole.search(line):
        return None
    parts = _compiled(_joined([f.part for f in hidden if f.part]))
    return line if parts is None else parts.sub("", line)


def offered(language: str, lines: list[str]) -> tuple[LineFilter, ...]:
    """The filters that would change one of these lines: a switch that changes nothing is not offered. One scan
    of the lines joined (in C) per pattern until one matches, not a Python loop over hundreds of thousands of
    lines; each pattern alone, since an alternation hides the literals re skips ahead to."""
    found = of(language)
    if not found or not lines:
        return ()
    text = "\n" + "\n".join(lines)  # each line after a newline (_probe)
    return tuple(f for f in found if any(re.search(p, text, re.MULTILINE) for p in f.probes))


def hidden_ops(
    offered: Iterable[LineFilter], lines: Sequence[str], ops: Sequence[tuple[str, ...]]
) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(line id, its ops) of the lines that run ops and that one of the filters hides whole (llc's `DBG_VALUE`, a
    call of `llvm.dbg.value`), in id order: while such a line is hidden, the page takes its ops out of the counts
    of the passes that add or drop it (static/filtered.js). A line cut, not hidden, runs the ops it ran."""
    whole = _compiled(_joined([f.line for f in offered if f.line]))
    if whole is None:
        return ()
    search = whole.search
    return tuple((line_id, run) for line_id, run in enumerate(ops) if run and search(lines[line_id]))
