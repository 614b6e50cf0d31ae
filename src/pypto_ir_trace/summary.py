"""What a report shows, for a machine: the summary JSON (`--summary-json`, `Report.summary()`), its Markdown
digest for a CI job (`--summary-md`), and the merge of the summaries of a root split across CI jobs.

The JSON's shape is `summary.schema.json`, shipped beside this module; `VERSION` is its version, bumped
whenever a key changes meaning or goes (a new key may be added within a version). Its keys follow the page's
convention: camelCase.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from typing import Any, Literal, get_args

from . import __version__, edits
from .errors import SummaryError
from .model import Pass, Pipeline, Report, RunRow
from .schemacheck import Check, Invalid, shown, validator
from .terminal import visible

VERSION = 1
# How a program's two runs compare, spelled once: as the JSON publishes it (the schema's enum and counts, held to
# this by a test), the API (ProgramResult.status), programs.Program and the index page alike.
Status = Literal["identical", "differs", "this-run-only", "baseline-only", "unreadable"]
STATUSES: tuple[Status, ...] = get_args(Status)
ONE_SIDE: dict[Status, str] = {"this-run-only": "only in this run", "baseline-only": "only in the baseline"}  # as read
MARKDOWN_ROWS = 25  # rows of a Markdown table; the rest are counted, not listed
MARKDOWN_CELL = 80  # characters of a name in a Markdown cell
MARKDOWN_ROOTS = 3  # pairs of roots a merge of several comparisons names in its title; the rest are counted
_BATCH = 20_000  # pieces of JSON text joined before they are written


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
    if p.printed_before:
        entry["printedBefore"] = True
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
        edits=_edits(entries),
    )
    return summary


def _edits(entries: Iterable[dict]) -> list[dict]:
    """The programs grouped by the same edit (edits.py), from their entries: a merge groups across shards."""
    return edits.to_json(edits.groups((entry["name"], entry.get("edit")) for entry in entries))


def _program(program) -> dict:
    entry = {
        "name": program.name,
        "status": program.status,
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
    if program.steps:  # both runs read
        entry["effectDiffers"] = [" ".join(program.steps[r][:2]) for r in program.effects]
        entry["edit"] = program.edit
    return entry


def _counts(entries: Iterable[dict]) -> dict[str, int]:
    counts: dict[str, int] = dict.fromkeys(STATUSES, 0)
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


def merge(summaries: Sequence[tuple[str, object]], allow_mixed: bool = False) -> dict:
    """The summaries of the shards of two roots ((where each was read, its data), each shard a set of programs
    compared into its own directory) as one: every program once, in name order, its report's path relative
    to where the shards' `directory` paths are (each program's `report` joined to its shard's directory).
    Each shard is untrusted (a CI artifact): checked against the schema before any field is read. Shards
    that compared other roots are refused unless `allow_mixed`; then `roots` lists each pair."""
    if not summaries:
        raise SummaryError("merge needs at least one summary")
    check = validator(schema(), "#/$defs/programs")
    entries: dict[str, dict] = {}
    shard_of: dict[str, str] = {}
    skipped: set[str] = set()
    roots: dict[tuple[str, str], str] = {}  # each pair of roots compared -> the first shard that compared it
    for where, found in summaries:
        shard = _checked(where, found, check)
        for pair in _roots(shard):
            roots.setdefault(pair, where)
        if len(roots) > 1 and not allow_mixed:
            (this, baseline), first = next(iter(roots.items()))
            other = next(pair for pair in _roots(shard) if pair != (this, baseline))
            raise SummaryError(
                f"{where} compares {other[0]} against {other[1]}, but {first} compared {this} against {baseline}: "
                "the shards of one comparison have the same roots (--allow-mixed merges several comparisons)"
            )
        for entry in shard["programs"]:
            name = entry["name"]
            if name in entries:
                shards = (
                    f"twice in {where}" if shard_of[name] == where else f"in two shards ({shard_of[name]}, {where})"
                )
                raise SummaryError(f"program {name} is {shards}: shard by program")
            report = entry["report"] and _joined(shard["directory"], entry["report"])
            entries[name], shard_of[name] = {**entry, "report": report}, where
        skipped.update(shard["skipped"])
    (this, baseline), _ = next(iter(roots.items()))
    merged = _head("programs")
    programs = [entries[name] for name in sorted(entries)]
    merged.update(
        this=this,
        baseline=baseline,
        directory=".",
        index=None,
        counts=_counts(programs),
        programs=programs,
        skipped=sorted(skipped),
        edits=_edits(programs),
    )
    if len(roots) > 1:
        merged["roots"] = [{"this": this, "baseline": baseline} for this, baseline in roots]
    return merged


def _checked(where: str, found: object, check: Check) -> dict:
    """A shard's data once it fits the schema of a summary of programs of this version; else a SummaryError
    naming the shard and the field."""
    if not isinstance(found, dict) or found.get("kind") != "programs":
        raise SummaryError(f"{where} is not a summary of two roots of programs (--summary-json of a run with -o DIR)")
    if "version" in found and not (type(found["version"]) is int and found["version"] == VERSION):
        raise SummaryError(
            f"{where} is a summary of version {shown(found['version'])}; this tool reads version {VERSION}"
        )
    try:
        check(found)
    except Invalid as err:
        raise SummaryError(f"{where} is not a valid summary: {err}") from None
    return found


def _roots(shard: dict) -> list[tuple[str, str]]:
    """The pairs of roots a shard compared: its own, or those of the shards a merged one was made of."""
    return [(pair["this"], pair["baseline"]) for pair in shard.get("roots", ())] or [(shard["this"], shard["baseline"])]


def _joined(directory: str, report: str) -> str:
    return report if directory == "." else f"{directory.rstrip('/')}/{report}"


def read(path: str) -> object:
    """A summary file's JSON, for merging, not yet checked (a NaN is read, and refused where it stands)."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as err:
        raise SummaryError(f"cannot read {path}: {err.strerror or err}") from None
    except RecursionError:
        raise SummaryError(f"{path} is not a summary: its JSON nests too deep to read") from None
    except (ValueError, UnicodeDecodeError) as err:
        raise SummaryError(f"{path} is not JSON: {err}") from None


def json_chunks(found: dict) -> Iterator[str]:
    """A summary as the JSON --summary-json writes, in pieces, so that a merge of many programs is never held
    as one string (200,000 programs: 60 MB of text, a list of 10 million pieces inside json.dumps)."""
    pieces = json.JSONEncoder(indent=1, ensure_ascii=False, allow_nan=False).iterencode(found)
    while batch := "".join(itertools.islice(pieces, _BATCH)):  # joined in C, a batch at a time
        yield batch
    yield "\n"


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
        f"### IR Trace: {_md_roots(summary)}",
        "",
        f"{_md(total)} program{'s' if total != 1 else ''}: {_md(counts['differs'])} "
        f"differ{'s' if counts['differs'] == 1 else ''}, {_md(counts['identical'])} identical"
        + "".join(
            f", {_md(counts[status])} {words}"
            for status, words in (*ONE_SIDE.items(), ("unreadable", "unreadable"))
            if counts[status]
        )
        + ".",
    ]
    order = ("unreadable", "differs", "this-run-only", "baseline-only")  # what needs a look first
    listed = sorted(
        (entry for entry in summary["programs"] if entry["status"] != "identical"),
        key=lambda entry: order.index(entry["status"]) if entry["status"] in order else len(order),
    )
    grouped = _md_edits(summary.get("edits", ()), rows)
    table = [
        "| program | status | first divergent pass | difference there | effect differs at |",
        "| --- | --- | --- | --- | --- |",
    ]
    for entry in listed[:rows]:
        if entry["status"] == "unreadable":  # the reason, which may need more room than a pass's name
            first = _md(entry.get("error", ""), MARKDOWN_CELL * 2)
        else:
            first = _md(entry["firstDivergent"] or "")
        size = f"+{_md(entry['inserted'])} −{_md(entry['deleted'])}" if entry["status"] == "differs" else ""
        effects = _md(", ".join(at.partition(" ")[0] for at in entry.get("effectDiffers", ())))  # the passes' labels
        table.append(f"| {_md(entry['name'])} | {_md(entry['status'])} | {first} | {size} | {effects} |")
    where = ["", f"Reports: {_md(summary['index'], None)}"] if summary["index"] else []
    return head + grouped + (["", *table, *_more(len(listed), rows)] if listed else []) + where


def _md_edits(groups: Sequence[dict], rows: int) -> list[str]:
    """One line per group of programs making the same edit, largest first, at most `rows` of them."""
    if not groups:
        return []
    lines = ["", "Programs whose runs differ by the same edit:", ""]
    for group in groups[:rows]:
        edit, count = group["edit"], len(group["programs"])
        told = "; ".join(_md_change(change) for change in edit["changes"])
        more = f"; {_md(edit['more'])} more" if edit["more"] else ""
        where = " at the inputs" if edit["pass"] == "input" else f" at {_md(edit['pass'])}"
        said = f"{told}{more}{where}" if told else _md(edit["description"])  # no changes: a pass one run runs
        lines.append(f"- {_md(count)} program{'s' if count != 1 else ''}: {said}")
    return lines + _more(len(groups), rows)


def _md_change(change: Sequence[str]) -> str:
    old, new = change
    if old and new:
        return f"{_md(old)} → {_md(new)}"
    return f"only {'the baseline' if old else 'this run'} has {_md(old or new)}"


def _md_roots(summary: dict) -> str:
    """What a summary of programs compared: its two roots, or each pair of a merge of several comparisons."""
    pairs = summary.get("roots") or [summary]
    named = [f"{_md(pair['this'])} against the baseline {_md(pair['baseline'])}" for pair in pairs[:MARKDOWN_ROOTS]]
    if len(pairs) == 1:
        return named[0]
    rest = f"; and {_md(len(pairs) - MARKDOWN_ROOTS)} more" if len(pairs) > MARKDOWN_ROOTS else ""
    return f"{_md(len(pairs))} comparisons merged: " + "; ".join(named) + rest


def _md_runs(summary: dict, rows: int) -> list[str]:
    this, baseline = summary["pipelines"][0], summary["pipelines"][-1]
    first = summary["firstDivergent"]
    if summary["identical"]:
        verdict = "The two runs print identical IR after every pass."
    elif first is None:
        verdict = "The runs differ in their input only."
    else:
        verdict = (
            f"The runs diverge first after {_md(first['pass'])} (+{_md(first['inserted'])} −{_md(first['deleted'])}); "
            f"they differ after {_md(summary['differing'])} of {_md(len(summary['rows']))} passes."
        )
    runs = f"{_md(this['title'])} against the baseline {_md(baseline['title'])}"
    named = summary["title"] in (this["title"], baseline["title"])  # else the runs are named apart from the program
    head = [
        f"### IR Trace: two runs of {runs}" if named else f"### IR Trace: {_md(summary['title'])}, two runs: {runs}"
    ]
    head += ["", verdict]
    differing = [row for row in summary["rows"] if not row["identical"]]
    table = ["| pass | difference | same effect |", "| --- | --- | --- |"]
    for row in differing[:rows]:
        effect = {True: "yes", False: "no", None: "one run only"}[row["sameEffect"]]
        table.append(f"| {_md(row['pass'])} | +{_md(row['inserted'])} −{_md(row['deleted'])} | {effect} |")
    where = ["", f"Report: {_md(summary['report'], None)}"] if summary["report"] else []
    return head + (["", *table, *_more(len(differing), rows)] if differing else []) + where


def _md_dump(summary: dict, rows: int) -> list[str]:
    pipelines = summary["pipelines"]
    changed = [(pipeline, p) for pipeline in pipelines for p in pipeline["passes"] if not p["noOp"]]
    passes = sum(len(pipeline["passes"]) for pipeline in pipelines)
    head = [f"### IR Trace: {_md(summary['title'])}", "", f"{_md(passes)} passes, {_md(len(changed))} changed."]
    named = len(pipelines) > 1  # the pipeline column only where there are several
    columns = ["pipeline"] * named + ["pass", "inserted", "deleted"]
    table = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    for pipeline, p in changed[:rows]:
        first = f"| {_md(pipeline['name'])} " if named else ""
        table.append(f"{first}| {_md(p['label'] + ' ' + p['name'])} | {_md(p['inserted'])} | {_md(p['deleted'])} |")
    where = ["", f"Report: {_md(summary['report'], None)}"] if summary["report"] else []
    return head + (["", *table, *_more(len(changed), rows)] if changed else []) + where


def _more(listed: int, rows: int) -> list[str]:
    return ["", f"… and {_md(listed - rows)} more not listed here."] if listed > rows else []


def _md(value: object, limit: int | None = MARKDOWN_CELL) -> str:
    """The one way a value reaches the Markdown, whatever a summary (a shard: untrusted) holds: a count (an
    integer) as its digits; anything else (a name, a path, a string where a count belongs) as an inert code
    span on one line, spaces kept: control characters shown as escapes (a newline as \\x0a), cut to `limit` characters, a
    backtick (it would end the span) shown as ', a | escaped even there, as a table cell needs."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    text = visible(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    if text.startswith(" ") and text.endswith(" ") and text.strip():  # a code span drops one space each side
        text = f" {text} "
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`" if text else ""
