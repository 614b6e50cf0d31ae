"""Build a report model and read it back the way the viewer does. The data contract is model.schema.json:
every model built here is held to it before a test reads it, so these readers read the declared shape."""

from __future__ import annotations

import json
from collections.abc import Callable

from pypto_ir_trace import builder, compare, grammar, highlight, model, schemacheck, structure
from pypto_ir_trace.formats import load
from pypto_ir_trace.languages import MLIR, mlir
from pypto_ir_trace.linetable import LineTable


def load_dump(path, format_name=None):
    """The one dump at path (a single pipeline)."""
    return load(path, format_name)[0]


def report_of(dump, context: int = 3) -> model.Report:
    return builder.build((dump,), context)


_CONTRACT = schemacheck.validator(model.schema())


def model_json(report: model.Report) -> dict:
    """model.to_json's data, checked against its schema (schemacheck.Invalid names the first field that breaks it)."""
    data = model.to_json(report)
    _CONTRACT(data)
    return data


def build(dump, context: int = 3) -> dict:
    """The JSON model of one dump, flattened: the report's fields plus its only pipeline's."""
    data = model_json(report_of(dump, context))
    return {**data, **data["pipelines"][0]}


def blocks(segments):
    """A piece's segments as (before line, after line, equal, deleted, inserted) blocks."""
    for segment in segments:
        b, a = segment[0], segment[1]
        for at in range(2, len(segment), 3):
            eq, deleted, inserted = segment[at : at + 3]
            yield b, a, eq, deleted, inserted
            b += eq + deleted
            a += eq + inserted


def text_ids(data: dict, t: int, cache: dict | None = None) -> list[int]:
    cache = {} if cache is None else cache
    if t not in cache:
        entry = data["texts"][t]
        if "ids" in entry:
            cache[t] = list(entry["ids"])  # the model gives the text's own tuple, JSON's array
        else:
            p = data["passes"][entry["producedBy"]]
            before = text_ids(data, p["before"], cache)
            after, inserted = [], iter(p["insertedIds"])
            for piece in p["pieces"]:
                for b, _, eq, _, ins in blocks(piece["segments"]):
                    after += before[b : b + eq]
                    after += [next(inserted) for _ in range(ins)]
            cache[t] = after
    return cache[t]


def source(data: dict, t: int, cache: dict | None = None) -> str:
    entry = data["texts"][t]
    ids = text_ids(data, t, cache)
    parts = []
    for i, line_id in enumerate(ids):
        if "eols" in entry:
            ending = entry["eols"][i]
        else:
            ending = entry["eol"] if i < len(ids) - 1 or entry["final"] else ""
        parts.append(data["lines"][line_id] + ending)
    return "".join(parts)


def not_rebuilt(data: dict, dump) -> list[str]:
    """The snapshots whose exact text the model (one pipeline's data) does not give back: [] when it gives back
    every one, the input as text 0 and each pass's after side."""
    if len(data["passes"]) != len(dump.snapshots) - 1:
        return [f"{len(data['passes'])} passes for {len(dump.snapshots)} snapshots"]
    cache: dict = {}
    texts = [0] + [p["after"] for p in data["passes"]]
    return [s.filename for s, t in zip(dump.snapshots, texts) if source(data, t, cache) != s.text]


def regions(entry: dict) -> list[list]:
    """A text's regions as [key, kind, start, end] lists."""
    return [[r["key"], r["kind"], r["start"], r["end"]] for r in entry["regions"]]


def value_spans(lines: list[str]) -> list[list[tuple[int, int]]]:
    """Per line, the spans of its MLIR value names, from a fresh parse (what the builder stores per line)."""
    tree, (_, offsets) = structure.parse(lines, MLIR), structure.source(lines)
    found = {}
    for first, stop, captures in highlight.walk(tree, [(0, len(lines))], mlir.query("values")):
        found.update(mlir.names_in(captures, lines, offsets, first, stop))
    return [found.get(row, []) for row in range(len(lines))]


def apply(before: list[int], diff: compare.PassDiff) -> list[int]:
    """The after side rebuilt from the before side and a pass diff, as the viewer does."""
    after: list[int] = []
    inserted = iter(diff.inserted_ids)
    for piece in diff.pieces:
        for b, _, eq, _, ins in blocks(piece.segments):
            after.extend(before[b : b + eq])
            after.extend(next(inserted) for _ in range(ins))
    return after


def highlights(tree, lines: list[str], rows: list[tuple[int, int]], language) -> dict[int, tuple[int, ...]]:
    """The spans the builder stores for the lines in each [first, stop) row range: row -> (gap, length, class, ...)."""
    offsets = structure.source(lines)[1]
    query = grammar.query(language.grammar, language.name, "highlights")
    return {
        row: spans
        for first, stop, captures in highlight.walk(tree, rows, query)
        for row, spans in highlight.spans_of(captures, lines, offsets, first, stop, language)
    }


def safe_json(data: object) -> str:
    """The report's JSON as the page must carry it: compact, and nothing that could end its <script> element or
    open a comment (<, >, &, U+2028, U+2029 escaped)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def lines_read(monkeypatch) -> list[str]:
    """The lines whose facts the builder reads from a tree from now on, in the order it reads them."""
    read: list[str] = []
    read_facts = builder._facts

    def counted(record, tree, lines, rows, offsets):
        read.extend(lines[row] for first, stop in rows for row in range(first, stop))
        return read_facts(record, tree, lines, rows, offsets)

    monkeypatch.setattr(builder, "_facts", counted)
    return read


def with_and_without_shapes(monkeypatch, make: Callable[[], dict]) -> tuple[dict, int, dict, int]:
    """A model made as it is (a line of a shape read before takes that line's facts: linetable.LineTable.derived),
    then with every new line read from its tree: each with its lines' highlight spans and elisions written out
    (the tables list each distinct list once, in the order lines first needed it), and the lines read from trees."""
    read = lines_read(monkeypatch)
    derived, derived_read = _tables_resolved(make()), len(read)
    read.clear()
    monkeypatch.setattr(LineTable, "alike", lambda self, ids, rows, shape: (rows, []))
    return derived, derived_read, _tables_resolved(make()), len(read)


def _tables_resolved(data: dict) -> dict:
    data = dict(data)
    spans = data.pop("spans")
    data["lineSpans"] = [spans[i] for i in data["lineSpans"]]
    if data.get("lineElisions"):
        elisions = data.pop("elisions")
        data["lineElisions"] = [elisions[i] for i in data["lineElisions"]]
    return data
