"""Many programs at once (what CI produces): two roots of one dump per program give a directory with an
index page and one two-run report per program, written as a whole or not at all."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from . import builder, edits, index, outdir, render, summary, workers
from .dump import Dump
from .errors import DumpError, UsageError
from .formats import FORMATS, load, one_file, units_of
from .labels import Given, run_labels
from .model import Report

NAMES = ("this run", "baseline")  # the two pipelines of a two-run report
DEFAULT_DIRECTORY = "ir_trace_runs"
INDEX = "index.html"


@dataclass(frozen=True)
class Program:
    """One line of the index: a program and how its two runs compare."""

    name: str
    status: summary.Status
    report: str  # the report's file name in the directory ("": none, the program is unreadable)
    first: str = ""  # the first pass after which the runs differ: "34 AllocateMemoryAddr", or "input"
    inserted: int = 0  # the difference there
    deleted: int = 0
    differing: int = 0  # rows after which the runs differ
    rows: int = 0  # aligned rows
    passes: tuple[int, int] = (0, 0)  # passes in this run, in the baseline
    one_side: int = 0  # rows of a pass only one run runs: identical IR, yet the pipelines differ
    error: str = ""  # why an unreadable program could not be compared
    # each aligned row (the inputs' first when they differ): (label, pass name, identical, inserted, deleted): the
    # runs' snapshots after it, compared; the index's programs x passes grid (programs_grid.py)
    steps: tuple[tuple[str, str, bool, int, int], ...] = ()
    effects: tuple[int, ...] = ()  # the steps whose pass had a different effect in the two runs (Pass effect)
    edit: dict | None = None  # how its runs first part, as an edit (edits.Edit.to_json): what groups programs


def _looks_like_dump(path: Path) -> bool:
    return bool(_claims(path))


def is_root(path: Path) -> bool:
    """A directory of programs: not a dump itself, with at least one entry that is one (one rule for every
    format: a folder holding one program's dump is a root of one program)."""
    return _listing(path) is not None


def several(path: Path) -> str | None:
    """When path is a directory of several programs, the error for a run of one: one program of each kind
    found (a PyPTO dump, an MLIR tree, a stream) given as an example, and how to compare them all."""
    if units_of(path).is_dir():  # a compile output's ptoas units are one program's pipelines
        return None
    listing = _listing(path)
    if listing is None or len(listing[0]) < 2:
        return None
    examples: dict[str, Path] = {}  # kind -> its first program
    for program in listing[0].values():
        examples.setdefault(_kind(program), program)
    shown = "; ".join(f"{program}, {kind}" for kind, program in examples.items())
    return (
        f"{path} is a directory of {len(listing[0])} programs, not one dump: give one of them (e.g. {shown}), "
        "or compare two such directories with --baseline"
    )


def _kind(program: Path) -> str:
    """What a program of a root is, in its format's words (a folder holding a stream file: the stream's)."""
    claims = _claims(program)
    with contextlib.suppress(DumpError, OSError):  # a folder that cannot be listed: "a dump"
        if not claims and program.is_dir() and (file := one_file(program)) is not None:
            claims = _claims(file)
    return claims[0].description if claims else "a dump"


def _listing(path: Path) -> tuple[dict[str, Path], list[str]] | None:
    """programs_in(path) when path is a directory of programs, else None."""
    if not path.is_dir() or _top_here(path, _claiming(path)):
        return None
    found = programs_in(path)
    return found if found[0] else None


def programs_in(root: Path) -> tuple[dict[str, Path], list[str]]:
    """The programs of a root by name (a folder holding one dump, or a dump that is one file), and why each
    other folder that holds dumps is not one: a link back into the root (`latest -> .`), several programs.
    An entry that cannot be read (a folder that cannot be listed) is a program too when the root holds others:
    reading it gives the reason, and it is listed as unreadable as a broken dump is."""
    found: dict[str, Path] = {}
    unreadable: dict[str, Path] = {}
    skipped: list[str] = []
    for child in _entries(root):
        try:
            what = _entry(child, root)
        except (DumpError, OSError):
            unreadable[child.name] = child
            continue
        if what == PROGRAM:
            found[child.name] = child
        elif what:
            skipped.append(what)
    return ({**found, **unreadable} if found else {}), skipped


PROGRAM = "a program"


def _entry(child: Path, root: Path) -> str:
    """What an entry of a root is: PROGRAM, why it is skipped, or "" (not a dump)."""
    if child.is_symlink() and _inside(child, root):
        return f"{child.name} (a link back into {_title(root)})"
    if child.is_file():
        return PROGRAM if any(record.reads_file for record in _claims(child)) else ""
    if not child.is_dir():
        return ""
    claims = _claims(child)
    if _top_here(child, claims):  # a dump
        return PROGRAM
    below = sum(entry.is_dir() and _looks_like_dump(entry) for entry in _entries(child))
    # a folder leading to one dump, or holding a dump that is one file
    if (below == 1 and claims) or (not below and one_file(child)):
        return PROGRAM
    return f"{child.name} (it holds {below} programs: give it as a root of its own)" if below else ""


def _claims(path: Path) -> list:
    return list(_claiming(path))


def _claiming(path: Path) -> Iterator:
    """The formats whose detection sees a dump at path, in FORMATS order, each detected when asked for (a
    PyPTO dump, claimed first, then needs no other format's reader); one that cannot read what it looks at (a
    folder below that cannot be listed) sees none: reading the dump names what it could not read."""
    for record in FORMATS.values():
        try:
            claimed = record.looks_like(path)
        except (DumpError, OSError):
            claimed = False
        if claimed:
            yield record


def _top_here(path: Path, claims: Iterable) -> bool:
    """Whether a dump's top lies at path. Detection that looks at any depth (MLIR tree files) sees a dump in a
    folder of programs holding them too: that folder is not one when every claim sees its top below."""
    return any(record.found_below is None or not record.found_below(path) for record in claims)


def _entries(path: Path) -> list[Path]:
    try:
        return sorted(path.iterdir())
    except OSError as err:
        raise DumpError(f"cannot read directory {path}: {err.strerror or err}") from None


def _inside(link: Path, root: Path) -> bool:
    """Whether a link leads to the root itself or into it (reading it would read a program twice, or all)."""
    target, top = Path(os.path.realpath(link)), Path(os.path.realpath(root))
    return target == top or top in target.parents


def check_formats(this: tuple[Dump, ...], baseline: tuple[Dump, ...], this_path, baseline_path) -> None:
    """Two runs compare only within one language: an MLIR tree against an MLIR stream, not against PyPTO."""
    ours, theirs = FORMATS[this[0].format], FORMATS[baseline[0].format]
    if ours.language is not theirs.language:
        raise UsageError(
            f"--baseline {baseline_path} is {theirs.description} but {this_path} is "
            f"{ours.description}: compare two runs printed in one IR language"
        )


@dataclass(frozen=True)
class Compared:
    """What a comparison of two roots wrote: its directory and each program's line of the index."""

    directory: Path
    programs: tuple[Program, ...]  # in name order
    skipped: tuple[str, ...]  # the folders of either root not read as programs, each with its reason
    not_compared: tuple[str, ...]  # pipelines after each program's first (a compile output's ptoas units)

    @property
    def index(self) -> Path:
        return self.directory / INDEX


@dataclass(frozen=True)
class _Task:
    """One program to compare in a worker; its report is written into the directory being built."""

    name: str
    file: str
    ours: Path | None
    theirs: Path | None
    format_name: str | None
    context: int
    temp: Path
    target: Path
    labels: Given = (None, None)  # the user's names for the two runs


def compare(
    this_root: str | Path,
    baseline_root: str | Path,
    output_path: str | Path | None,
    format_name: str | None,
    context: int,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    note: Callable[[str], None] | None = None,
    labels: Given = (None, None),
) -> Compared:
    """Compare every program of two roots in `jobs` worker processes; the directory appears complete or not at
    all, byte for byte the same whatever `jobs`. A program that cannot be read is listed as unreadable."""
    roots = Path(this_root), Path(baseline_root)
    for root in roots:
        if not root.exists():
            raise DumpError(f"input directory does not exist: {root}")
    ours_listing, theirs_listing = (_listing(root) for root in roots)  # each root's entries detected once
    if ours_listing is None or theirs_listing is None:
        one, other = (roots[0], roots[1]) if ours_listing is not None else (roots[1], roots[0])
        raise UsageError(f"{one} is a directory of programs but {other} is not: give two dumps or two such directories")
    if str(output_path) == "-":
        raise UsageError(
            "-o - writes one report, but two directories of programs give a directory of reports: name it with -o"
        )
    target = Path(output_path or DEFAULT_DIRECTORY)
    outdir.check(target, roots, INDEX)
    (ours, ours_skipped), (theirs, theirs_skipped) = ours_listing, theirs_listing
    for root, skipped in ((roots[0], ours_skipped), (roots[1], theirs_skipped)):
        if skipped and note:
            note(f"not read as programs in {root}: {'; '.join(skipped)}")
    # A program is a dump in either root; its entry in the other root is then read as one (a broken dump
    # is that program's error, rather than passing for a program that root lacks), unless it is a link back
    # into its root (a link elsewhere is read: a CI shard is a root of links to the programs).
    for side, root in ((ours, roots[0]), (theirs, roots[1])):
        for name in (ours.keys() | theirs.keys()) - side.keys():
            entry = root / name
            if entry.exists() and not (entry.is_symlink() and _inside(entry, root)):
                side[name] = entry
    names = sorted(ours.keys() | theirs.keys())
    jobs, capped = workers.jobs_allowed(jobs, len(names))
    if capped and note:
        note(capped)
    temp = outdir.temporary(target)
    try:
        tasks = [
            _Task(
                name,
                _file_name(name, temp),
                ours.get(name),
                theirs.get(name),
                format_name,
                context,
                temp,
                target,
                labels,
            )
            for name in names
        ]
        found: list[tuple[Program, tuple[str, ...]] | None] = [None] * len(tasks)
        with workers.Workers(_compare_one, jobs, describe=lambda task: task.name, died=_died) as pool:
            for done, (at, result) in enumerate(pool.run(tasks), 1):
                found[at] = result
                if progress:
                    progress(done, len(tasks))
        listed = [program for program, _ in filter(None, found)]
        left_out = sorted({pipeline for _, left in filter(None, found) for pipeline in left})
        skipped = [
            f"{_title(root)}/{what}" for root, side in zip(roots, (ours_skipped, theirs_skipped)) for what in side
        ]
        titles = run_labels((_title(roots[0]), _title(roots[1])), roots, labels)
        outdir.write(temp, target, INDEX, index.render(listed, *titles, skipped))
        written = [program.report for program in listed if program.report]
        outdir.publish(temp, target, [INDEX, *written], INDEX)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return Compared(target, tuple(listed), tuple(skipped), tuple(left_out))


def _title(root: Path) -> str:
    return root.resolve().name or "root"


def _compare_one(task: _Task) -> tuple[Program, tuple[str, ...]]:
    """One program's line of the index, its report written, and the pipelines it leaves out; a program that
    cannot be read or compared is unreadable, with the reason, and has no report."""
    try:
        page, program, left_out = _program(task)
    except (DumpError, UsageError) as err:
        return Program(task.name, "unreadable", "", error=_relative(str(err), task)), ()
    except OSError as err:  # met before the format could name it (a folder that cannot be listed)
        error = f"cannot read {err.filename}: {err.strerror or err}" if err.filename else str(err)
        return Program(task.name, "unreadable", "", error=_relative(error, task)), ()
    except Exception as err:  # a bug met in this program only: said as such, and the others still compared
        error = f"internal error: {type(err).__name__}: {err}"
        return Program(task.name, "unreadable", "", error=_relative(error, task)), ()
    outdir.write(task.temp, task.target, task.file, page)
    return program, left_out


def _died(task: _Task, how: str) -> tuple[Program, tuple[str, ...]]:
    """A program whose worker process died comparing it (out of memory, a crash): unreadable, the others go on."""
    return Program(task.name, "unreadable", "", error=f"the worker process comparing it {how}"), ()


def _relative(message: str, task: _Task) -> str:
    """message with the roots' paths shortened to their names, as the index names them: the page is the same
    whatever the roots' spelling (and holds no absolute path)."""
    for path in (task.ours, task.theirs):
        if path is not None:
            message = message.replace(f"{path.parent}{os.sep}", f"{_title(path.parent)}/")
    return message


def _program(task: _Task) -> tuple[str, Program, tuple[str, ...]]:
    this = load(task.ours, task.format_name) if task.ours else ()
    baseline = load(task.theirs, task.format_name) if task.theirs else ()
    if this and baseline:
        check_formats(this, baseline, task.ours, task.theirs)
        assert task.ours is not None and task.theirs is not None  # both runs were read
        labels = run_labels((this[0].title, baseline[0].title), (task.ours, task.theirs), task.labels)
        report = build_pair(this, baseline, task.context, labels=labels)
        return render.render(report), _summary(task.name, task.file, report), tuple(not_compared(this, baseline))
    report = builder.build(this or baseline, task.context)
    status: summary.Status = "this-run-only" if this else "baseline-only"
    return render.render(report), Program(task.name, status, task.file, passes=_passes(report)), ()


def build_pair(
    this: tuple[Dump, ...],
    baseline: tuple[Dump, ...],
    context: int,
    progress=None,
    labels: tuple[str, str] | None = None,
) -> Report:
    """One report of two runs: each side's first pipeline named after its run and titled by its label (see
    labels.py; default: its own title), the two compared row by row; the report is titled by the program
    (the runs' title when they share it, else this run's). The page shows those two alone, so the others (a
    compile output's ptoas units) stay out: see not_compared."""
    titles = labels or (this[0].title, baseline[0].title)
    named = (replace(this[0], name=NAMES[0], title=titles[0]), replace(baseline[0], name=NAMES[1], title=titles[1]))
    return builder.build(named, context, progress, baseline=1, title=this[0].title)


def not_compared(this: tuple[Dump, ...], baseline: tuple[Dump, ...]) -> list[str]:
    """The pipelines of two runs that build_pair leaves out (after the first of each side), by name."""
    return sorted({dump.name or dump.title for dump in this[1:] + baseline[1:]})


def _passes(report: Report) -> tuple[int, int]:
    counts = [len(pipeline.passes) for pipeline in report.pipelines]
    return (counts[0], counts[-1]) if report.runs is not None else (counts[0], 0)


def _summary(name: str, file: str, report: Report) -> Program:
    runs = report.runs
    assert runs is not None  # a report of two runs
    differing = sum(not row.identical for row in runs.rows)
    status: summary.Status = "identical" if runs.inputs.identical and not differing else "differs"
    first = summary.first_divergent(report)
    one_side = sum(row.this is None or row.baseline is None for row in runs.rows)
    edit = edits.of_report(report)
    return Program(
        name,
        status,
        file,
        first["pass"] if first else "",
        first["inserted"] if first else 0,
        first["deleted"] if first else 0,
        differing,
        len(runs.rows),
        _passes(report),
        one_side,
        steps=_steps(report),
        effects=_effects(report),
        edit=edit.to_json() if edit else None,
    )


def _steps(report: Report) -> tuple[tuple[str, str, bool, int, int], ...]:
    """Each aligned row as the report's pass list names it (label, name), and how the runs differ after it."""
    runs = report.runs
    assert runs is not None  # a report of two runs
    pipelines = report.pipelines
    steps = []
    if not runs.inputs.identical:
        steps.append((pipelines[runs.this].input.label, "input", False, runs.inputs.inserted, runs.inputs.deleted))
    for row in runs.rows:
        mine = pipelines[runs.this].passes[row.this] if row.this is not None else None
        other = pipelines[runs.baseline].passes[row.baseline] if row.baseline is not None else None
        if mine is not None:
            steps.append((mine.label, mine.name, row.identical, row.inserted, row.deleted))
        elif other is not None:  # as the two-run page labels a baseline-only row
            steps.append((f"b{other.label}", other.name, row.identical, row.inserted, row.deleted))
    return tuple(steps)


def _effects(report: Report) -> tuple[int, ...]:
    """The steps (as _steps lists them) whose pass made a different edit in the two runs."""
    runs = report.runs
    assert runs is not None  # a report of two runs
    offset = 0 if runs.inputs.identical else 1  # the inputs' step first when they differ
    return tuple(r + offset for r, row in enumerate(runs.rows) if row.same_effect is False)


def _file_name(program: str, directory: Path) -> str:
    """`<program>.html`; one more `_` for names made of index and underscores, so none is index.html or another's;
    a name too long for the file system is shortened with a stable suffix."""
    return outdir.file_name(program + ("_" if program.rstrip("_") == "index" else ""), ".html", directory)
