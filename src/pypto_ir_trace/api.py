"""The Python API, re-exported by the package (`from pypto_ir_trace import build_report`): what the command
line does, as functions. The command line is a shell over these; errors are the package's exceptions
(IRTraceError and its kinds), never SystemExit.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import builder, output, programs, render, summary, workers
from .dump import Dump, split_lines
from .errors import DumpError, OutputError, UsageError
from .formats import FORMATS, display_title, format_of, load, units_of
from .labels import Given, run_labels
from .model import Report as _Model

Progress = Callable[[int, int], None]  # (done, total): snapshots read for a report, programs for two roots
UNITS_SHOWN = 3  # codegen units named in the "using ..." note; more are counted


class Report:
    """A report of one dump, or of two runs of one program (`baseline`). It is built when first needed
    (`write`, `html`, `summary`), so that `write` refuses a bad destination before the long part."""

    def __init__(
        self,
        dumps: tuple[Dump, ...],
        baseline: tuple[Dump, ...],
        context: int,
        given: tuple[str, ...],
        progress: Progress | None = None,
        labels: Given = (None, None),
    ) -> None:
        """Made by build_report, which finds and checks the inputs."""
        self._dumps, self._baseline, self._context, self._given = dumps, baseline, context, given
        # the two runs' names (labels.py), for the header, the summaries and the notes
        self._labels: tuple[str, str] | None = (
            run_labels((dumps[0].title, baseline[0].title), (Path(given[0]), Path(given[1])), labels)
            if baseline
            else None
        )
        self._progress = progress
        self._model: _Model | None = None
        self._written: str | None = None
        self._checked: set[str] = set()  # the destinations check() accepted
        self.not_compared: tuple[str, ...] = tuple(programs.not_compared(dumps, baseline)) if baseline else ()
        self.compared = dumps[0].name  # the pipeline a report of two runs compares when it leaves some out
        # what the user should be told (the CLI's notes), one line each: where a compile output is read from,
        # then what reading the dumps found
        self.read_from: tuple[str, ...] = ()
        self.notes: tuple[str, ...] = ()

    def check(self, path: str | os.PathLike[str], *, what: str = "report", option: str = "-o") -> None:
        """Raise the OutputError that write(path) would raise for its destination, without building anything;
        what and option: how its message names the file and the option that gave it (a summary, for one)."""
        where = os.fspath(path)
        keep = [file for dump in self._dumps + self._baseline for file in output.dump_files(dump)]
        output.check(where, keep, what=what, option=option)
        self._check_not_read(where, what, option)
        self._checked.add(where)

    def write(self, path: str | os.PathLike[str]) -> bool:
        """Write the page to path ('-': stdout), atomically: a failure leaves no partial file and the previous
        one intact. False when stdout's reader left before the whole page reached it."""
        where = os.fspath(path)
        if where not in self._checked:  # checked once: a stat or a path per dump file (2,411 of them in a big tree)
            self.check(where)
        whole = output.write(where, render.pieces(self._built()))  # written as it is encoded
        self._written = None if where == output.STDOUT else where
        return whole

    def html(self) -> str:
        """The self-contained page."""
        return render.render(self._built())

    def summary(self) -> dict:
        """What the report shows, as the JSON of `--summary-json` (summary.schema.json: kind "dump" or "runs");
        its `report` is the path last written, else None."""
        return summary.of_report(self._built(), self._written, self.not_compared)

    @property
    def differs(self) -> bool:
        """Two runs that do not print identical IR after every pass (False for one dump)."""
        return summary.differs(self.summary())

    def structure(self) -> Iterator[str]:
        """The functions and methods found in each snapshot of the dump, as lines to read (--dump-structure):
        a snapshot's line count, regions and whether its structure is trusted, then one line per region."""
        for dump in self._dumps:
            language = format_of(dump).language
            for snapshot in dump.snapshots:
                lines, _ = split_lines(snapshot.text)
                found = language.structure_of(lines)
                verdict = "trusted" if found.trusted else f"UNTRUSTED: {found.reason}"
                yield f"{snapshot.filename}: {len(lines)} lines, {len(found.regions)} regions, {verdict}"
                for region in found.regions:
                    note = f"  ({region.error})" if region.error else ""
                    yield f"  {region.start + 1:>6}-{region.end:<6} {region.kind:<8} {region.key}{note}"

    def _built(self) -> _Model:
        if self._model is None:
            dumps, baseline = self._dumps, self._baseline
            if baseline:
                self._model = programs.build_pair(dumps, baseline, self._context, self._progress, self._labels)
            else:
                # several pipelines (a compile output's) are one program: titled by the folder the user named
                title = display_title(Path(self._given[0])) if len(dumps) > 1 else None
                self._model = builder.build(dumps, self._context, self._progress, title=title)
        return self._model

    def _check_not_read(self, path: str, what: str, option: str) -> None:
        """Refuse a path that reading an input would take for one of its files: the next run would read the
        report (or summary) as a pass, or fail on it."""
        if path == output.STDOUT:
            return
        where = Path(os.path.realpath(path))
        for given, dumps in zip(self._given, (self._dumps, self._baseline)):
            if any(format_of(dump).reads_path(Path(given), where) for dump in dumps):
                raise OutputError(
                    f"refusing to write the {what} to {path}: reading {given} would read it as one of its dump "
                    f"files (give {option} a path outside the dump, or another name)"
                )


def build_report(
    dump: str | os.PathLike[str],
    *,
    baseline: str | os.PathLike[str] | None = None,
    context: int = 3,
    format: str | None = None,
    progress: Progress | None = None,
    label: str | None = None,
    baseline_label: str | None = None,
    pipeline: str | None = None,
) -> Report:
    """The report of a dump (a passes_dump/, a compile output directory, an MLIR tree or stream), or of two
    runs of one program with `baseline`. The inputs are found and checked now (DumpError, UsageError); the
    report is built when first written or summarised, calling progress(snapshots done, in all) meanwhile.
    `format`: one of the formats' names (pypto, mlir-tree, mlir-stream, llvm) instead of detecting it. `label`,
    `baseline_label`: the two runs' names (default: their titles, or the parts of their paths that differ).
    `pipeline`: the pipeline two runs compare where their dumps hold several (default: the first)."""
    _check_labels(baseline, label, baseline_label)
    if pipeline is not None and baseline is None:
        raise UsageError("a pipeline is chosen for two runs to compare: give a baseline too")
    if context < 0:
        raise UsageError(f"context must be a non-negative integer, got {context}")
    if format is not None and format not in FORMATS:
        raise UsageError(f"unknown format {format!r}: one of {', '.join(sorted(FORMATS))}")
    given = (os.fspath(dump), *([os.fspath(baseline)] if baseline is not None else []))
    if baseline is None and (message := programs.several(Path(given[0]))) is not None:
        raise DumpError(message)
    if baseline is not None and any(programs.is_root(Path(path)) for path in given):
        raise UsageError(f"{given[0]} or {given[1]} is a directory of programs: compare them with compare_programs")
    dumps = load(given[0], format)
    other = load(given[1], format) if baseline is not None else ()
    if other:
        programs.check_formats(dumps, other, given[0], given[1])
    if pipeline is not None:
        dumps, other = _first(dumps, pipeline, given[0]), _first(other, pipeline, given[1])
    report = Report(dumps, other, context, given, progress, (label, baseline_label))
    report.read_from = tuple(
        f"using {read}"
        for path, side in zip(given, (dumps, other))
        if side and (read := _read_from(Path(path), side, with_units=not other))
    )
    report.notes = tuple(_notes(report, given, forced=format is not None))
    return report


def _notes(report: Report, given: tuple[str, ...], forced: bool) -> list[str]:
    """What the user is told before a report is built: what reading the dumps found."""
    dumps, baseline = report._dumps, report._baseline
    notes = []
    shown = dumps[:1] + baseline[:1] if baseline else dumps  # a pair's report holds only each side's first
    names = report._labels or [dump.name or dump.title for dump in shown]
    for dump, name in zip(shown, names):
        named = f"{name}: " if len(shown) > 1 else ""
        if not forced:  # detection is stated; a forced format needs no confirmation
            notes.append(f"{named}reading {format_of(dump).description}, {len(dump.snapshots)} snapshots")
        notes += [named + line for line in dump.notes]
        if len(dump.snapshots) == 1:
            notes.append(f"{named}the dump holds only {dump.input_file}: no pass snapshot follows it")
        for failed in (s for s in dump.snapshots if s.failed):  # a CI log says it without opening the report
            notes.append(f"{named}{failed.label} {failed.name} failed: the pipeline stopped there ({failed.filename})")
    if report.not_compared:  # several pipelines a side (ptoas units, compilations, chunks): one is compared
        left_out = report.not_compared
        folder = f", or give a unit's folder, e.g. {units_of(given[0]) / left_out[0]}" if _compile_output(dumps) else ""
        notes.append(
            f"--baseline compares the two runs' {report.compared} pipelines; not compared: {', '.join(left_out)} "
            f"(--pipeline NAME compares another{folder})"
        )
    return notes


def _first(side: tuple[Dump, ...], name: str, given: str) -> tuple[Dump, ...]:
    """A run's pipelines with the one named `name` first: two runs compare each side's first."""
    names = [dump.name or dump.title for dump in side]
    if name not in names:
        raise UsageError(f"{given} holds no pipeline named {name!r}: its pipelines are {', '.join(names)}")
    at = names.index(name)
    return (side[at], *side[:at], *side[at + 1 :])


def _compile_output(side: tuple[Dump, ...]) -> bool:
    """Whether a run is a compile output directory (passes_dump/ beside ptoas_passes/)."""
    return any(dump.redirected for dump in side)


def _read_from(given: Path, side: tuple[Dump, ...], with_units: bool) -> str:
    """What a compile output directory is read from: its passes_dump/ and, unless two runs compare only that,
    its ptoas units ("" when the input given is read itself)."""
    inside = sorted({dump.redirected for dump in side} - {""})
    if not inside:
        return ""
    read = " and ".join(str(given / folder) for folder in inside)
    units = [dump.name for dump in side if not dump.redirected]  # the pipelines read beside it
    if with_units and units:
        shown = ", ".join(units[:UNITS_SHOWN]) + (", ..." if len(units) > UNITS_SHOWN else "")
        read += f" and {units_of(given)} ({len(units)} codegen unit{'s' if len(units) > 1 else ''}: {shown})"
    return read


def _check_labels(baseline: object, label: str | None, baseline_label: str | None) -> None:
    if (label is not None or baseline_label is not None) and baseline is None:
        raise UsageError("labels name the two runs of a comparison: give a baseline too")
    if "" in (label, baseline_label):
        raise UsageError("a label must not be empty")


@dataclass(frozen=True)
class ProgramResult:
    """One program of two roots: how its two runs compare."""

    name: str
    status: summary.Status  # "identical", "differs", "this-run-only", "baseline-only" or "unreadable"
    report: Path | None  # its two-run report (None: unreadable)
    first_divergent: str | None  # "34 AllocateMemoryAddr", "input", or None
    inserted: int  # the difference after the first divergent pass
    deleted: int
    error: str | None  # why an unreadable program could not be compared


@dataclass(frozen=True)
class ProgramsSummary:
    """What compare_programs wrote: a directory with index.html and one report per readable program."""

    directory: Path
    index: Path
    programs: tuple[ProgramResult, ...]  # in name order
    not_compared: tuple[str, ...]  # pipelines after each program's first (a compile output's ptoas units)
    _summary: dict = field(repr=False)  # the JSON, built once

    def summary(self) -> dict:
        """The JSON of `--summary-json` (summary.schema.json, kind "programs")."""
        return self._summary

    @property
    def differs(self) -> bool:
        """Some program is not identical in the two roots (it differs, is in one root only, or is unreadable)."""
        return any(program.status != "identical" for program in self.programs)

    @property
    def unreadable(self) -> tuple[ProgramResult, ...]:
        return tuple(program for program in self.programs if program.status == "unreadable")


def compare_programs(
    root: str | os.PathLike[str],
    baseline_root: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    jobs: int | None = None,
    context: int = 3,
    format: str | None = None,
    progress: Progress | None = None,
    notes: Callable[[str], None] | None = None,
    label: str | None = None,
    baseline_label: str | None = None,
) -> ProgramsSummary:
    """Compare every program of two roots (one dump per program) into out_dir: an index page and one two-run
    report per program, written whole or not at all, byte for byte the same whatever `jobs` (worker processes;
    default: the cores this process may use). A program that cannot be read is listed as unreadable and the
    others are still compared; progress(programs done, in all) as they complete; notes(line) for what the
    user should be told (folders not read as programs). `label`, `baseline_label`: the two runs' names in
    the index and every report (default: the parts of the roots' paths that differ)."""
    _check_labels(baseline_root, label, baseline_label)
    if jobs is not None and jobs < 1:
        raise UsageError(f"jobs must be at least 1, got {jobs}")
    if context < 0:
        raise UsageError(f"context must be a non-negative integer, got {context}")
    found = programs.compare(
        os.fspath(root),
        os.fspath(baseline_root),
        os.fspath(out_dir),
        format,
        context,
        jobs or workers.default_jobs(),
        progress,
        notes,
        (label, baseline_label),
    )
    data = summary.of_programs(
        found.programs, os.fspath(root), os.fspath(baseline_root), os.fspath(out_dir), str(found.index), found.skipped
    )
    results = tuple(
        ProgramResult(
            program.name,
            program.status,
            found.directory / program.report if program.report else None,
            program.first or None,
            program.inserted,
            program.deleted,
            program.error or None,
        )
        for program in found.programs
    )
    return ProgramsSummary(found.directory, found.index, results, found.not_compared, data)


def merge_summaries(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, allow_mixed: bool = False
) -> dict:
    """The `--summary-json` files of shards of two roots (each a subset of the programs, compared into its own
    directory) as one summary; each program's report path is its shard's directory joined to its file name.
    `paths`: a list of paths, or one path (a str is one file's path, never its characters). Each shard is
    checked against the schema (SummaryError naming the shard and the field); shards that compared other
    roots are refused unless `allow_mixed`."""
    given = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    return summary.merge([(os.fspath(path), summary.read(os.fspath(path))) for path in given], allow_mixed)
