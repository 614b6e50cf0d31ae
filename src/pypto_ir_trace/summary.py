"""What a report shows, for a machine: the summary JSON (`--summary-json`, `Report.summary()`), its Markdown
digest for a CI job (`--summary-md`), and the merge of the summaries of a root split across CI jobs.

The JSON's shape is `summary.schema.json`, shipped beside this module; `VERSION` is its version, bumped
whenever a key changes meaning or goes (a new key may be added within a version). Its keys follow the page's
convention: camelCase.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from . import __version__
from .errors import IRTraceError
from .model import Pass, Pipeline, Report, RunRow
from .terminal import visible

VERSION = 1
# the index's statuses (programs.Program.status) as the JSON names them
STATUSES = {
    "identical": "identical",
    "differs": "differs",
    "this run only": "this-run-only",
    "baseline only": "baseline-only",
    "unreadable": "unreadable",
}
MARKDOWN_ROWS = 25  # rows of a Markdown table; the rest are counted, not listed
MARKDOWN_CELL = 80  # characters of a name in a Markdown cell


class SummaryError(IRTraceError):
    """A summary to merge cannot be read or does not fit the others; one line for the user."""


def schema() -> dict:
    """The JSON Schema of the summaries (draft 2020-12)."""
    return json.loads(resources.files(__package__).joinpath("summary.schema.json").read_text(encoding="utf-8"))


def _head(kind: str) -> dict[str, Any]:
    return {"version": VERSION, "kind": kind, "generator": f"pypto-ir-trace {__version__}"}


def of_report(report: Report, written: str | None, not_compared: Sequence[str] = ()) -> dict:
    """One report: kind "dump" (one run, each pipeline's passes) or "runs" (two runs compared). `written`: the
    report's path as given, None when it went to stdout or was not written."""
    summary = _head("runs" if report.runs is not None else "dump")
    summary.update(title=report.title, report=written, pipelines=[_pipeline(p) for p in report.pipelines])
    if report.runs is None:
        return summary
    runs = report.runs
    rows = [_row(report, row) for row in runs.rows]
    summary.update(
        identical=runs.inputs.identical and all(row.identical for row in runs.rows),
        inputs={"identical": runs.inputs.identical, "inserted": runs.inputs.inserted, "deleted": runs.inputs.deleted},
        firstDivergent=first_divergent(report),
        differing=sum(not row.identical for row in runs.rows),
        sameEffect=sum(row.same_effect is True for row in runs.rows),
        differentEffect=sum(row.same_effect is False for row in runs.rows),
        rows=rows,
        notCompared=list(not_compared),
    )
    return summary


def _pipeline(pipeline: Pipeline) -> dict:
    changes: dict[str, list[dict]] = {}
    for p in pipeline.passes:
        for key, inserted, deleted in p.diff.by_region if p.diff else ():
            changes.setdefault(key, []).append({"label": p.label, "inserted": inserted, "deleted": deleted})
    return {
        "name": pipeline.name,
        "format": pipeline.format,
        "title": pipeline.title,
        "input": {"label": pipeline.input.label, "name": pipeline.input.name, "file": pipeline.input.file},
        "passes": [_pass(p) for p in pipeline.passes],
        "functions": [{"name": key, "passes": changes[key]} for key in sorted(changes)],
    }


def _pass(p: Pass) -> dict:
    entry = {
        "label": p.label,
        "name": p.name,
        "file": p.file,
        "inserted": p.inserted,
        "deleted": p.deleted,
        "noOp": p.diff is None,
        "warnings": bool(p.warnings),
        "errors": len(p.error_lines),
        "failed": p.failed,
    }
    return {**entry, "header": p.header} if p.header else entry


def _row(report: Report, row: RunRow) -> dict:
    return {
        "this": row.this,
        "baseline": row.baseline,
        "pass": row_name(report, row),
        "identical": row.identical,
        "inserted": row.inserted,
        "deleted": row.deleted,
        "sameEffect": row.same_effect,
    }


def row_name(report: Report, row: RunRow) -> str:
    """How a row is named: this run's pass label and name, or the baseline's for a pass only it runs."""
    assert report.runs is not None  # a report of two runs
    if row.this is not None:
        p = report.pipelines[report.runs.this].passes[row.this]
        return f"{p.label} {p.name}"
    assert row.baseline is not None  # a row has a pass of one run at least
    p = report.pipelines[report.runs.baseline].passes[row.baseline]
    return f"{p.label} {p.name} (baseline only)"


def first_divergent(report: Report) -> dict | None:
    """Where two runs part: the first row after which they differ ("input" when their inputs already do) and
    the difference there; None when they never do."""
    runs = report.runs
    assert runs is not None  # a report of two runs
    if not runs.inputs.identical:
        return {"row": None, "pass": "input", "inserted": runs.inputs.inserted, "deleted": runs.inputs.deleted}
    if runs.first_divergent is None:
        return None
    row = runs.rows[runs.first_divergent]
    return {
        "row": runs.first_divergent,
        "pass": row_name(report, row),
        "inserted": row.inserted,
        "deleted": row.deleted,
    }


def of_programs(
    programs: Sequence, this_root: str, baseline_root: str, directory: str, index: str, skipped: Sequence[str] = ()
) -> dict:
    """Two roots of many programs (programs.Program records in name order): each program's status, where its
    runs part and its report's file name in `directory`."""
    summary = _head("programs")
    entries = [_program(program) for program in programs]
    summary.update(
        this=this_root,
        baseline=baseline_root,
        directory=directory,
        index=index,
        counts=_counts(entries),
        programs=entries,
        skipped=list(skipped),
    )
    return summary


def _program(program) -> dict:
    entry = {
        "name": program.name,
        "status": STATUSES[program.status],
        "report": program.report or None,
        "firstDivergent": program.first or None,
        "inserted": program.inserted,
        "deleted": program.deleted,
        "differing": program.differing,
        "rows": program.rows,
        "passes": list(program.passes),
        "oneSide": program.one_side,
    }
    if program.error:
        entry["error"] = program.error
    return entry


def _counts(entries: Iterable[dict]) -> dict[str, int]:
    counts = dict.fromkeys(STATUSES.values(), 0)
    for entry in entries:
        counts[entry["status"]] += 1
    return counts


def differs(summary: dict) -> bool:
    """Whether a summary of two runs, or of two roots, shows a difference (what --check gates on)."""
    if summary["kind"] == "runs":
        return not summary["identical"]
    if summary["kind"] == "programs":
        return any(entry["status"] != "identical" for entry in summary["programs"])
    return False


# ---- sharded roots --------------------------------------------------------------------------------------


def merge(summaries: Sequence[tuple[str, dict]]) -> dict:
    """The summaries of the shards of two roots ((where each was read, its data), each shard a set of programs
    compared into its own directory) as one: every program once, in name order, its report's path relative
    to where the shards' `directory` paths are (each program's `report` joined to its shard's directory)."""
    if not summaries:
        raise SummaryError("merge needs at least one summary")
    entries: dict[str, dict] = {}
    skipped: list[str] = []
    for where, summary in summaries:
        if not isinstance(summary, dict) or summary.get("kind") != "programs":
            raise SummaryError(
                f"{where} is not a summary of two roots of programs (--summary-json of a run with -o DIR)"
            )
        if summary.get("version") != VERSION:
            raise SummaryError(
                f"{where} is a summary of version {summary.get('version')}; this tool reads version {VERSION}"
            )
        for entry in summary["programs"]:
            if entry["name"] in entries:
                raise SummaryError(f"program {entry['name']} is in two shards (the second: {where}): shard by program")
            report = entry["report"] and f"{summary['directory'].rstrip('/')}/{entry['report']}"
            entries[entry["name"]] = {**entry, "report": report}
        skipped += summary["skipped"]
    first = summaries[0][1]
    merged = _head("programs")
    programs = [entries[name] for name in sorted(entries)]
    merged.update(
        this=first["this"],
        baseline=first["baseline"],
        directory=".",
        index=None,
        counts=_counts(programs),
        programs=programs,
        skipped=sorted(set(skipped)),
    )
    return merged


def read(path: str) -> dict:
    """A summary file, for merging."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as err:
        raise SummaryError(f"cannot read {path}: {err.strerror or err}") from None
    except (ValueError, UnicodeDecodeError) as err:
        raise SummaryError(f"{path} is not JSON: {err}") from None


# ---- Markdown, for a CI job summary or a pull-request comment -------------------------------------------


def markdown(summary: dict, rows: int = MARKDOWN_ROWS) -> str:
    """A few lines and one table of at most `rows` rows, whatever the input's size: what was compared, what
    differs and where, the report's path."""
    kind = summary["kind"]
    lines = (_md_programs if kind == "programs" else _md_runs if kind == "runs" else _md_dump)(summary, rows)
    return "\n".join(lines) + "\n"


def _md_programs(summary: dict, rows: int) -> list[str]:
    counts = summary["counts"]
    total = len(summary["programs"])
    head = [
        f"### IR Trace: {_cell(summary['this'])} against the baseline {_cell(summary['baseline'])}",
        "",
        f"{total} program{'s' if total != 1 else ''}: {counts['differs']} differ{'s' if counts['differs'] == 1 else ''}, "
        f"{counts['identical']} identical"
        + "".join(
            f", {counts[status]} {words}"
            for status, words in (
                ("this-run-only", "only in this run"),
                ("baseline-only", "only in the baseline"),
                ("unreadable", "unreadable"),
            )
            if counts[status]
        )
        + ".",
    ]
    order = ("unreadable", "differs", "this-run-only", "baseline-only")  # what needs a look first
    listed = sorted(
        (entry for entry in summary["programs"] if entry["status"] != "identical"),
        key=lambda entry: order.index(entry["status"]),
    )
    table = ["| program | status | first divergent pass | difference there |", "| --- | --- | --- | --- |"]
    for entry in listed[:rows]:
        if entry["status"] == "unreadable":  # the reason, which may need more room than a pass's name
            first = _cell(entry.get("error", ""), MARKDOWN_CELL * 2)
        else:
            first = _cell(entry["firstDivergent"] or "")
        size = f"+{entry['inserted']} −{entry['deleted']}" if entry["status"] == "differs" else ""
        table.append(f"| {_cell(entry['name'])} | {entry['status']} | {first} | {size} |")
    tail = ["", f"… and {len(listed) - rows} more not listed here."] if len(listed) > rows else []
    where = ["", f"Reports: `{_code(summary['index'])}`"] if summary["index"] else []
    return head + (["", *table, *tail] if listed else []) + where


def _md_runs(summary: dict, rows: int) -> list[str]:
    this, baseline = summary["pipelines"][0], summary["pipelines"][-1]
    first = summary["firstDivergent"]
    if summary["identical"]:
        verdict = "The two runs print identical IR after every pass."
    elif first is None:
        verdict = "The runs differ in their input only."
    else:
        verdict = (
            f"The runs diverge first after {_cell(first['pass'])} (+{first['inserted']} −{first['deleted']}); "
            f"they differ after {summary['differing']} of {len(summary['rows'])} passes."
        )
    head = [f"### IR Trace: two runs of {_cell(this['title'])} against {_cell(baseline['title'])}", "", verdict]
    differing = [row for row in summary["rows"] if not row["identical"]]
    table = ["| pass | difference | same effect |", "| --- | --- | --- |"]
    for row in differing[:rows]:
        effect = {True: "yes", False: "no", None: "one run only"}[row["sameEffect"]]
        table.append(f"| {_cell(row['pass'])} | +{row['inserted']} −{row['deleted']} | {effect} |")
    tail = ["", f"… and {len(differing) - rows} more not listed here."] if len(differing) > rows else []
    where = ["", f"Report: `{_code(summary['report'])}`"] if summary["report"] else []
    return head + (["", *table, *tail] if differing else []) + where


def _md_dump(summary: dict, rows: int) -> list[str]:
    pipelines = summary["pipelines"]
    changed = [(pipeline, p) for pipeline in pipelines for p in pipeline["passes"] if not p["noOp"]]
    passes = sum(len(pipeline["passes"]) for pipeline in pipelines)
    head = [f"### IR Trace: {_cell(summary['title'])}", "", f"{passes} passes, {len(changed)} changed."]
    named = len(pipelines) > 1  # the pipeline column only where there are several
    columns = ["pipeline"] * named + ["pass", "inserted", "deleted"]
    table = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    for pipeline, p in changed[:rows]:
        first = f"| {_cell(pipeline['name'])} " if named else ""
        table.append(f"{first}| {_cell(p['label'] + ' ' + p['name'])} | {p['inserted']} | {p['deleted']} |")
    tail = ["", f"… and {len(changed) - rows} more not listed here."] if len(changed) > rows else []
    where = ["", f"Report: `{_code(summary['report'])}`"] if summary["report"] else []
    return head + (["", *table, *tail] if changed else []) + where


def _cell(text: str, limit: int = MARKDOWN_CELL) -> str:
    """Untrusted text (a program's or a pass's name) as an inert code span on one line, cut to `limit`
    characters; a | is escaped even there, as a table cell needs."""
    text = visible(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`" if text else ""


def _code(text: str) -> str:
    """A path inside a code span: visible, without the backticks that would end it."""
    return visible(text).replace("`", "'")
