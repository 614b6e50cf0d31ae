"""The report model: the typed, deterministic data the viewer reads (one reader in the page: static/model.js).

It follows the information, not the printed size: each distinct line is stored once, with the index of
its highlight spans in a table of distinct span lists; each distinct snapshot text once, as the diff of
the pass that first produced it; and a no-op pass stores nothing but its counts. `to_json` is the only
serialisation.

The JSON's shape is declared once, in `model.schema.json` beside this module: the tests hold what `to_json`
writes and what model.js reads to it. The JSON is the page's data, so its keys follow JavaScript's
convention: each key is the camelCase of the field it carries here (`input_label` -> `inputLabel`), with no
other renaming; a test holds every key the schema declares to a field of these records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .filters import LineFilter
from .structure import Region


@cache
def schema() -> dict:
    """The JSON Schema of `to_json`'s data (draft 2020-12, checked by schemacheck)."""
    return json.loads(resources.files(__package__).joinpath("model.schema.json").read_text(encoding="utf-8"))


SCHEMA: int = schema()["properties"]["schema"]["const"]  # the data's version, bumped when a field changes meaning


@dataclass(frozen=True)
class Newlines:
    """How the text's lines end: one style and whether the last line ends, or each line's own ending."""

    eol: str = "\n"
    final: bool = True
    eols: tuple[str, ...] | None = None  # each line's own ending, set when the endings are mixed


@dataclass(frozen=True)
class Text:
    """One distinct snapshot text: stored as line ids, or as the pass whose diff rebuilds it."""

    newlines: Newlines
    regions: tuple[Region, ...]
    untrusted: str | None  # why its structure cannot be trusted
    ids: tuple[int, ...] | None = None  # set for texts no pass produces (the pipeline's input)
    produced_by: int | None = None  # the first pass whose before text and diff rebuild it


@dataclass(frozen=True)
class Piece:
    """One region's share of a pass's diff (key None: lines outside every region), in after-file order.

    segments: [before_start, after_start, equal, deleted, inserted, equal, deleted, inserted, ...]: blocks
    of `equal` equal lines, then `deleted` before lines, then `inserted` after lines, contiguous on each side.
    """

    key: str | None
    inserted: int
    deleted: int
    segments: tuple[tuple[int, ...], ...]
    # a region paired by content (compare.py's Pairing: renamed, or the best match of a split): the before
    # region's key; `key` is the after region's
    before_key: str | None = None


@dataclass(frozen=True)
class Diff:
    pieces: tuple[Piece, ...]
    inserted_ids: tuple[int, ...]  # line ids of every inserted line, in after order: they rebuild the after text
    by_region: tuple[tuple[str, int, int], ...]  # (key, inserted, deleted) of each changed region, sorted


@dataclass(frozen=True)
class Anchor:
    """A warning that names a line of the pass's own snapshot (0-based indices)."""

    log_line: int
    line: int
    message: str


@dataclass(frozen=True)
class Pass:
    label: str
    name: str
    file: str
    before: int  # text index
    after: int  # text index; equal to `before` for a no-op pass
    inserted: int
    deleted: int
    diff: Diff | None  # None for a no-op pass
    detail: str = ""
    header: str = ""  # the pass named in full by its dump's header line (MLIR), "": the format has none
    failed: bool = False
    printed_before: bool = False  # a Before dump (--print-before-all): what the pass received, not what it made
    warnings: str | None = None
    anchors: tuple[Anchor, ...] = ()
    error_lines: tuple[int, ...] = ()  # log lines that start an error diagnostic (Format.errors); the rest warn
    # (before line, after line) of changed lines equal under one consistent renaming of value names
    # within their function (renumber.py), sorted by after line; only for languages with value names
    renamed: tuple[tuple[int, int], ...] = ()
    # what the pass is diffed against when not the snapshot before it (an MLIR Before dump, an op's own
    # previous dump, an op cut out of a module dump); "": that one
    before_file: str = ""
    # what the pass did to the program's ops (opcounts.py): (op, count after minus before), largest change first
    ops: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Input:
    """The pipeline's input: the snapshot before its first pass."""

    file: str
    label: str  # "00" in a passes_dump; MLIR counts passes from 1, its input is "0"
    name: str  # what the input is, beside its label (its snapshot's name: "frontend", "(input not dumped)")


@dataclass(frozen=True)
class PipelineMap:
    """The pipeline at a glance (pipeline_map.py): a row per function, a column per pass."""

    functions: tuple[str, ...]  # every function a snapshot defines, in program order: the rows
    start: tuple[int, ...]  # each function's lines in the input (0: not there), by row
    lines: tuple[int, ...]  # the IR's lines after each pass
    # per pass: (row, inserted, deleted, lines after) of each function it changes, adds, removes or resizes,
    # flattened, by row (lines after 0: removed); a function not named keeps its lines
    cells: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Pipeline:
    name: str  # "PyPTO", or a codegen unit's name
    format: str
    title: str
    input: Input
    texts: tuple[Text, ...]
    passes: tuple[Pass, ...]
    notes: tuple[str, ...] = ()
    level: str | None = None  # the detail the compiler printed at (PyPTO: "EXPLICIT" or "CONCISE"), when known
    level_title: str = ""  # what the level badge says of it (the format's words), set with level
    advice: str = ""  # the note on a pass changing a line the level leaves implicit: how to see it ("": none)
    # CONCISE only: ids of the lines naming a type whose layout CONCISE leaves out (level.scm's @implicit), sorted;
    # a diff that inserts or deletes one gets the advice to re-dump at EXPLICIT
    implicit: tuple[int, ...] = ()
    # each implicit line's type class, in the order of `implicit`: lines of one class name the same types but
    # for where they are placed, so a pass that deletes and inserts as many of each class changes no hidden
    # layout (an address assigned, a buffer reused) and gets no advice
    implicit_types: tuple[int, ...] = ()
    renumbering: bool = False  # its language has value names: passes carry `renamed` pairs
    pipeline_map: PipelineMap | None = None
    # (key, what the viewer shows for it) of the functions whose key is not their name as users read it (a
    # demangled C++, Rust or Swift symbol); the key stays in tooltips and the summaries
    labels: tuple[tuple[str, str], ...] = ()
    # the switches that hide part of its lines (filters.py: debug info, metadata), those that would change a line
    filters: tuple[LineFilter, ...] = ()


@dataclass(frozen=True)
class RunRow:
    """One row of two aligned runs: each run's pass (None: it runs in the other run only), and how the two
    runs' snapshots after the row compare (a run without the row's pass is still at its previous snapshot)."""

    this: int | None  # pass index in this run's pipeline
    baseline: int | None  # pass index in the baseline's pipeline
    identical: bool  # the two snapshots are byte-identical
    inserted: int  # the baseline's snapshot diffed against this run's, as compare.diff_pass diffs a pass
    deleted: int
    # (baseline line, this run's line) pairs of that diff equal under one consistent renaming of value
    # names, as a Pass's `renamed` (renumber.py); only when both runs' language has value names
    renamed: tuple[tuple[int, int], ...] = ()
    # whether the row's pass made the same edit in both runs (effect.py); None when one run lacks the pass
    same_effect: bool | None = None
    # the pass's hunks in the two runs facing each other, the steps of n / p in Pass effect (effect.Verdict):
    # (this run's hunk, the baseline's), -1 for a hunk facing none; () when hunk k faces hunk k for every k
    facing: tuple[tuple[int, int], ...] = ()
    differing: tuple[int, ...] = ()  # the steps whose hunks make different edits
    # (key, inserted, deleted) of each function that differs between the two snapshots, sorted (that diff's)
    by_region: tuple[tuple[str, int, int], ...] = ()
    # (op, count in this run's snapshot minus the baseline's) of that diff, as a Pass's `ops` (opcounts.py)
    ops: tuple[tuple[str, int], ...] = ()
    # what the runs' edits differ by when same_effect is False (effect.changes: `pl.tile.exp` -> `pl.tile.exp2`);
    # for the inputs, how the runs' inputs differ; what groups programs by the same edit (edits.py)
    changes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Runs:
    """Two runs of one program, pass by pass: this run against a baseline (`--baseline`)."""

    this: int  # index of this run's pipeline in Report.pipelines
    baseline: int  # index of the baseline's pipeline
    inputs: RunRow  # the two inputs (this and baseline None)
    rows: tuple[RunRow, ...]  # the passes aligned by name (align.py), in order
    first_divergent: int | None  # the first row after which the runs differ; None when they never do
    reconverged: tuple[int, ...]  # rows after which the runs are identical again, having differed just before


@dataclass(frozen=True)
class Report:
    title: str
    generator: str
    context: int
    limits: dict[str, int]  # the diff's limits: the page diffs exactly as the builder does
    classes: tuple[str, ...]
    lines: tuple[str, ...]
    spans: tuple[tuple[int, ...], ...]  # distinct span lists: (gap, length, class, ...)
    line_spans: tuple[int, ...]  # line id -> its span list's index in spans
    pipelines: tuple[Pipeline, ...]
    runs: Runs | None = None  # set when the report compares two runs
    # What the viewer may elide of a line ("Elide types"): distinct lists (gap, length, ...) in UTF-16 units,
    # and line id -> its list's index in elisions (0: none); both empty when no line has any
    elisions: tuple[tuple[int, ...], ...] = ()
    line_elisions: tuple[int, ...] = ()
    # (line id, its ops) of the lines that run ops and that a pipeline's filter hides whole (filters.hidden_ops)
    hidden_ops: tuple[tuple[int, tuple[str, ...]], ...] = ()


def to_json(report: Report) -> dict:
    """The report as JSON-able data with named fields; optional fields are left out when empty."""
    data = {
        "schema": SCHEMA,
        "generator": report.generator,
        "title": report.title,
        "context": report.context,
        "limits": report.limits,
        "classes": list(report.classes),
        # the report's tuples as they are: they encode as arrays, and a list copy of each would be held while the page
        # is encoded (IREE mlp: 70,000 lines, 0.6 MB a table)
        "lines": report.lines,
        "spans": report.spans,
        "lineSpans": report.line_spans,
        "pipelines": [_pipeline(pipeline) for pipeline in report.pipelines],
    }
    if report.elisions:  # absent for languages without elide.scm
        data["elisions"] = report.elisions
        data["lineElisions"] = report.line_elisions
    if report.hidden_ops:  # absent unless a filter hides lines that run ops
        data["hiddenOps"] = [[line_id, *ops] for line_id, ops in report.hidden_ops]
    if report.runs is not None:  # absent otherwise: a single run's report is unchanged
        data["runs"] = _runs(report.runs)
    return data


def _runs(runs: Runs) -> dict:
    return {
        "this": runs.this,
        "baseline": runs.baseline,
        "inputs": _run_row(runs.inputs),
        "rows": [_run_row(row) for row in runs.rows],
        "firstDivergent": runs.first_divergent,
        "reconverged": list(runs.reconverged),
    }


def _run_row(row: RunRow) -> dict:
    entry: dict[str, object] = {
        "this": row.this,
        "baseline": row.baseline,
        "identical": row.identical,
        "inserted": row.inserted,
        "deleted": row.deleted,
    }
    if row.renamed:  # absent otherwise: PyPTO's runs are unchanged
        # The pairs as held (tuples encode as arrays): two 4,821-file runs have 2.5 million, 180 MB as lists.
        entry["renamed"] = row.renamed
    if row.same_effect is not None:
        entry["sameEffect"] = row.same_effect
    if row.facing:
        entry["facing"] = [list(hunks) for hunks in row.facing]
    if row.differing:
        entry["differing"] = list(row.differing)
    if row.by_region:
        entry["byRegion"] = {key: [inserted, deleted] for key, inserted, deleted in row.by_region}
    if row.ops:
        entry["ops"] = [list(op) for op in row.ops]
    return entry


def _pipeline(pipeline: Pipeline) -> dict:
    entry: dict[str, object] = {
        "name": pipeline.name,
        "format": pipeline.format,
        "title": pipeline.title,
        "input": {"file": pipeline.input.file, "label": pipeline.input.label, "name": pipeline.input.name},
    }
    if pipeline.level:
        entry["level"] = pipeline.level
        entry["levelTitle"] = pipeline.level_title
    if pipeline.advice:
        entry["advice"] = pipeline.advice
    if pipeline.implicit:  # as gaps: the ids run mostly consecutive, and gaps compress to almost nothing
        entry["implicit"] = [b - a for a, b in zip((0, *pipeline.implicit), pipeline.implicit)]
        entry["implicitTypes"] = list(pipeline.implicit_types)
    if pipeline.notes:
        entry["notes"] = list(pipeline.notes)
    if pipeline.renumbering:
        entry["renumbering"] = True
    if pipeline.labels:
        entry["labels"] = dict(pipeline.labels)
    if pipeline.filters:
        entry["filters"] = [
            {"name": f.name, "label": f.label, "title": f.title, "line": f.line, "part": f.part}
            for f in pipeline.filters
        ]
    entry["texts"] = [_text(text) for text in pipeline.texts]
    entry["passes"] = [_pass(p) for p in pipeline.passes]
    if pipeline.pipeline_map is not None:
        found = pipeline.pipeline_map
        entry["pipelineMap"] = {
            "functions": list(found.functions),
            "start": list(found.start),
            "lines": list(found.lines),
            "cells": list(found.cells),  # tuples encode as arrays
        }
    return entry


def _text(text: Text) -> dict:
    entry: dict = {"ids": text.ids} if text.ids is not None else {"producedBy": text.produced_by}
    if text.newlines.eols is not None:  # the Newlines record's fields, flattened into the text's
        entry["eols"] = list(text.newlines.eols)
    else:
        entry["eol"], entry["final"] = text.newlines.eol, text.newlines.final
    entry["regions"] = [_region(region) for region in text.regions]
    if text.untrusted is not None:
        entry["untrusted"] = text.untrusted
    return entry


def _region(region: Region) -> dict:
    entry = {"key": region.key, "kind": region.kind, "start": region.start, "end": region.end}
    if region.error:
        entry["error"] = region.error
    return entry


def _pass(p: Pass) -> dict:
    entry: dict = {"label": p.label, "name": p.name, "file": p.file}
    if p.detail:
        entry["detail"] = p.detail
    if p.header:
        entry["header"] = p.header
    if p.failed:
        entry["failed"] = True
    if p.printed_before:
        entry["printedBefore"] = True
    entry.update({"before": p.before, "after": p.after, "inserted": p.inserted, "deleted": p.deleted})
    if p.before_file:
        entry["beforeFile"] = p.before_file
    if p.warnings is not None:
        entry["warnings"] = p.warnings
    if p.anchors:
        entry["anchors"] = [{"logLine": a.log_line, "line": a.line, "message": a.message} for a in p.anchors]
    if p.error_lines:
        entry["errorLines"] = list(p.error_lines)
    if p.diff is not None:  # the Diff record's fields, flattened into the pass's
        entry["pieces"] = [_piece(piece) for piece in p.diff.pieces]
        entry["insertedIds"] = list(p.diff.inserted_ids)
        entry["byRegion"] = {key: [inserted, deleted] for key, inserted, deleted in p.diff.by_region}
    if p.renamed:
        entry["renamed"] = [list(pair) for pair in p.renamed]
    if p.ops:
        entry["ops"] = [list(op) for op in p.ops]
    return entry


def _piece(piece: Piece) -> dict:
    entry: dict = {"key": piece.key}
    if piece.before_key is not None:  # absent otherwise: pieces paired by name are unchanged
        entry["beforeKey"] = piece.before_key
    entry.update(
        {"inserted": piece.inserted, "deleted": piece.deleted, "segments": piece.segments}
    )  # tuples encode as lists
    return entry
