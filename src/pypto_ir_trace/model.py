"""The report model: the plain, deterministic data the viewer reads (contract in static/rows.js).

It follows the information, not the printed size: each distinct line is stored once with its
highlight spans, each distinct snapshot is parsed once and stored as the diff of the pass that first
produced it, and no-op passes store nothing but their counts.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from . import __version__, compare, highlight, linediff, structure
from .dump import Dump, split_lines
from .incremental import IncrementalParser
from .structure import Structure

FORMAT = 1
# A PyPTO warnings line: `file:line:col: warning: message` (the compiler's log format, not the IR's).
_LOG_LINE = re.compile(r"(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<message>.*)")


class _Text:
    """One distinct snapshot text: its line ids, newlines and structure (not its lines: they are interned)."""

    def __init__(self, endings: dict, ids: list[int], structure: Structure):
        self.endings = endings
        self.ids = ids
        self.structure = structure
        self.produced_by: int | None = None  # the first pass whose diff rebuilds it from its before text


def build(dump: Dump, context: int, progress: Callable[[int, int], None] | None = None) -> dict:
    """The model of a dump; `progress(done, total)` is called after each snapshot."""
    line_ids: dict[str, int] = {}
    line_spans: list[list[int]] = []
    texts: list[_Text] = []
    text_of: dict[bytes, int] = {}  # digest of a text -> its index: identical snapshots are handled once
    diffs: dict[tuple[int, int], compare.PassDiff] = {}
    parser = IncrementalParser()
    passes: list[dict] = []
    before = -1
    for snapshot in dump.snapshots:
        text = snapshot.text  # read one at a time: only distinct texts' line ids stay in memory
        digest = hashlib.blake2b(text.encode("utf-8", errors="surrogatepass"), digest_size=20).digest()
        after = text_of.get(digest)
        if after is None:
            after = text_of[digest] = len(texts)
            texts.append(_read_text(text, parser, line_ids, line_spans))
        del text
        if not snapshot.is_frontend:
            diff = None
            if before != after:
                if (before, after) not in diffs:
                    old, new = texts[before], texts[after]
                    diffs[before, after] = compare.diff_pass(old.ids, old.structure, new.ids, new.structure)
                    if new.produced_by is None:
                        new.produced_by = len(passes)
                diff = diffs[before, after]
            passes.append(_pass_entry(snapshot, before, after, diff))
        before = after
        if progress:
            progress(snapshot.index + 1, len(dump.snapshots))
    return {
        "format": FORMAT,
        "generator": f"pypto-ir-trace {__version__}",
        "title": dump.title,
        "context": context,
        "limits": linediff.LIMITS,  # the page's diffs (static/linediff.js) follow the same limits
        "frontend": dump.snapshots[0].filename,
        "classes": list(highlight.classes()),
        "lines": list(line_ids),
        "spans": line_spans,
        "texts": [_text_entry(text, index) for index, text in enumerate(texts)],
        "passes": passes,
    }


def _read_text(text: str, parser: IncrementalParser, line_ids: dict[str, int], line_spans: list[list[int]]) -> _Text:
    lines, endings = split_lines(text)
    ids = list(map(line_ids.get, lines))
    new_rows: list[tuple[int, int]] = []  # [first, stop) ranges of lines never seen before
    for row in (row for row, line_id in enumerate(ids) if line_id is None):
        line_id = line_ids.get(lines[row])
        if line_id is None:
            line_id = line_ids[lines[row]] = len(line_ids)
            line_spans.append([])
            if new_rows and new_rows[-1][1] == row:  # measured: merging across gaps costs more than it saves
                new_rows[-1] = (new_rows[-1][0], row + 1)
            else:
                new_rows.append((row, row + 1))
        ids[row] = line_id
    tree = parser.parse(lines, ids)
    # Highlight only the lines seen for the first time: the cost follows what changed.
    for row, spans in highlight.highlight(tree, lines, new_rows).items():
        if not line_spans[ids[row]]:
            line_spans[ids[row]] = spans
    return _Text(_endings(endings), ids, structure.analyze(tree, lines))


def _text_entry(text: _Text, index: int) -> dict:
    entry: dict = {"ids": text.ids} if index == 0 else {"pass": text.produced_by}
    entry.update(text.endings)
    s = text.structure
    entry["regions"] = [[r.key, r.kind, r.start, r.end, r.error] for r in s.regions]
    if not s.trusted:
        entry["untrusted"] = s.reason
    return entry


def _endings(endings: list[str]) -> dict:
    """Newlines as the file has them: one style and whether the last line ends, or each line's own."""
    if not endings:
        return {"eol": "\n", "final": False}
    eol = endings[0]
    if eol and all(e == eol for e in endings[:-1]) and endings[-1] in (eol, ""):
        return {"eol": eol, "final": endings[-1] == eol}
    return {"eols": endings}


def _pass_entry(snapshot, before: int, after: int, diff: compare.PassDiff | None) -> dict:
    entry = {
        "label": snapshot.label,
        "name": snapshot.name,
        "file": snapshot.filename,
        "before": before,
        "after": after,
        "ins": diff.inserted if diff else 0,
        "del": diff.deleted if diff else 0,
    }
    if snapshot.warnings:
        entry["warnings"] = snapshot.warnings
        anchors = _anchors(snapshot.warnings, snapshot.filename)
        if anchors:
            entry["anchors"] = anchors
    if diff is not None:
        entry["pieces"] = [[p.key, p.inserted, p.deleted, p.segments] for p in diff.pieces]
        entry["inserted"] = diff.inserted_ids
        entry["regions"] = {key: list(counts) for key, counts in sorted(diff.by_region.items())}
    return entry


def _anchors(warnings: str, filename: str) -> list[list]:
    """[[log line, after line, message]] (0-based) for warnings that name a line of the pass's own snapshot."""
    found = []
    for index, text in enumerate(warnings.split("\n")):
        match = _LOG_LINE.fullmatch(text.rstrip("\r"))
        if match and match["file"].rsplit("/", 1)[-1] == filename and int(match["line"]) > 0:
            found.append([index, int(match["line"]) - 1, match["message"].strip()])
    return found
