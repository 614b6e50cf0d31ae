"""Many programs at once (what CI produces): two roots of one dump per program give a directory with an
index page and one two-run report per program, written as a whole or not at all."""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from . import builder, index, outdir, render
from .dump import Dump, DumpError
from .formats import FORMATS, load, one_file, units_of
from .model import Report

NAMES = ("this run", "baseline")  # the two pipelines of a two-run report
DEFAULT_DIRECTORY = "ir_trace_runs"
INDEX = "index.html"


class UsageError(Exception):
    """The two sides cannot be compared as given (an argument error, exit 2); one line for the user."""


@dataclass(frozen=True)
class Program:
    """One line of the index: a program and how its two runs compare."""

    name: str
    status: str  # "differs", "identical", "this run only", "baseline only"
    report: str  # the report's file name in the directory
    first: str = ""  # the first pass after which the runs differ: "34 AllocateMemoryAddr", or "input"
    inserted: int = 0  # the difference there
    deleted: int = 0
    differing: int = 0  # rows after which the runs differ
    rows: int = 0  # aligned rows
    passes: tuple[int, int] = (0, 0)  # passes in this run, in the baseline
    one_side: int = 0  # rows of a pass only one run runs: identical IR, yet the pipelines differ
    # each aligned row (the inputs' first when they differ): (label, pass name, identical, inserted, deleted): the
    # runs' snapshots after it, compared; the index's programs x passes grid (programs_grid.py)
    steps: tuple[tuple[str, str, bool, int, int], ...] = ()


def _looks_like_dump(path: Path) -> bool:
    return any(record.looks_like(path) for record in FORMATS.values())


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
    if not claims and program.is_dir() and (file := one_file(program)) is not None:
        claims = _claims(file)
    return claims[0].description if claims else "a dump"


def _listing(path: Path) -> tuple[dict[str, Path], list[str]] | None:
    """programs_in(path) when path is a directory of programs, else None."""
    if not path.is_dir() or _top_here(path, _claims(path)):
        return None
    found = programs_in(path)
    return found if found[0] else None


def programs_in(root: Path) -> tuple[dict[str, Path], list[str]]:
    """The programs of a root by name (a folder holding one dump, or a dump that is one file), and why each
    other folder that holds dumps is not one: a link back into the root (`latest -> .`), several programs."""
    found: dict[str, Path] = {}
    skipped: list[str] = []
    for child in _entries(root):
        if child.is_symlink() and _inside(child, root):
            skipped.append(f"{child.name} (a link back into {_title(root)})")
        elif child.is_file():
            if any(record.reads_file and record.looks_like(child) for record in FORMATS.values()):
                found[child.name] = child
        elif child.is_dir():
            claims = _claims(child)
            if _top_here(child, claims):  # a dump
                found[child.name] = child
                continue
            below = sum(entry.is_dir() and _looks_like_dump(entry) for entry in _entries(child))
            # a folder leading to one dump, or holding a dump that is one file
            if (below == 1 and claims) or (not below and one_file(child)):
                found[child.name] = child
            elif below:
                skipped.append(f"{child.name} (it holds {below} programs: give it as a root of its own)")
    return found, skipped


def _claims(path: Path) -> list:
    """The formats whose detection sees a dump at path."""
    return [record for record in FORMATS.values() if record.looks_like(path)]


def _top_here(path: Path, claims: list) -> bool:
    """Whether a dump's top lies at path. Detection that looks at any depth (MLIR tree files) sees a dump in a
    folder of programs holding them too: that folder is not one when every claim sees its top below."""
    return not all(record.found_below is not None and record.found_below(path) for record in claims)


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


def run(
    this_root: str,
    baseline_root: str,
    output_path: str | None,
    format_name: str | None,
    context: int,
    progress: Callable[[int, int], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> str:
    """Compare every program of two roots; the directory appears complete or not at all. Returns what was written."""
    roots = Path(this_root), Path(baseline_root)
    for root in roots:
        if not root.exists():
            raise DumpError(f"input directory does not exist: {root}")
    ours_listing, theirs_listing = (_listing(root) for root in roots)  # each root's entries detected once
    if ours_listing is None or theirs_listing is None:
        one, other = (roots[0], roots[1]) if ours_listing is not None else (roots[1], roots[0])
        raise UsageError(f"{one} is a directory of programs but {other} is not: give two dumps or two such directories")
    if output_path == "-":
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
    # fails the run, naming it, rather than passing for a program that root lacks).
    for side, root in ((ours, roots[0]), (theirs, roots[1])):
        for name in (ours.keys() | theirs.keys()) - side.keys():
            if (root / name).exists() and not (root / name).is_symlink():
                side[name] = root / name
    names = sorted(ours.keys() | theirs.keys())
    temp = outdir.temporary(target)
    try:
        listed: list[Program] = []
        left_out: set[str] = set()
        save = functools.partial(outdir.write, temp, target)
        for name in names:
            file = _file_name(name, temp)
            listed.append(_program(name, file, ours.get(name), theirs.get(name), format_name, context, save, left_out))
            if progress:
                progress(len(listed), len(names))
        skipped = [
            f"{_title(root)}/{what}" for root, side in zip(roots, (ours_skipped, theirs_skipped)) for what in side
        ]
        outdir.write(temp, target, INDEX, index.render(listed, _title(roots[0]), _title(roots[1]), skipped))
        outdir.publish(temp, target, [INDEX, *(program.report for program in listed)], INDEX)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    changed = sum(program.status != "identical" for program in listed)
    unseen = (
        f" (each program's first pipeline compared; not compared: {', '.join(sorted(left_out))})" if left_out else ""
    )
    return f"{len(listed)} programs, {changed} not identical{unseen}: {target / INDEX}"


def _title(root: Path) -> str:
    return root.resolve().name or "root"


def _program(
    name: str,
    file: str,
    ours: Path | None,
    theirs: Path | None,
    format_name: str | None,
    context: int,
    save: Callable[[str, str], None],
    left_out: set[str],
) -> Program:
    this = load(ours, format_name) if ours else ()
    baseline = load(theirs, format_name) if theirs else ()
    if this and baseline:
        check_formats(this, baseline, ours, theirs)
        report = build_pair(this, baseline, context)
        left_out.update(not_compared(this, baseline))
    else:
        report = builder.build(this or baseline, context)
    save(file, render.render(report))
    if not (this and baseline):
        return Program(name, "this run only" if this else "baseline only", file, passes=_passes(report))
    return _summary(name, file, report)


def build_pair(this: tuple[Dump, ...], baseline: tuple[Dump, ...], context: int, progress=None) -> Report:
    """One report of two runs: each side's first pipeline named after its run, the two compared row by row.
    The page shows those two alone, so the others (a compile output's ptoas units) stay out: see not_compared."""
    named = (replace(this[0], name=NAMES[0]), replace(baseline[0], name=NAMES[1]))
    return builder.build(named, context, progress, baseline=1)


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
    status = "identical" if runs.inputs.identical and not differing else "differs"
    first, found = "", None
    if not runs.inputs.identical:
        first, found = "input", runs.inputs
    elif runs.first_divergent is not None:
        found = runs.rows[runs.first_divergent]
        first = row_name(report, found)
    one_side = sum(row.this is None or row.baseline is None for row in runs.rows)
    return replace(
        Program(
            name,
            status,
            file,
            first,
            found.inserted if found else 0,
            found.deleted if found else 0,
            differing,
            len(runs.rows),
            _passes(report),
            one_side,
        ),
        steps=_steps(report),
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


def row_name(report: Report, row) -> str:
    """How a row is named: this run's pass label and name, or the baseline's for a pass only it runs."""
    assert report.runs is not None  # a report of two runs
    if row.this is not None:
        p = report.pipelines[report.runs.this].passes[row.this]
        return f"{p.label} {p.name}"
    p = report.pipelines[report.runs.baseline].passes[row.baseline]
    return f"{p.label} {p.name} (baseline only)"


def _file_name(program: str, directory: Path) -> str:
    """`<program>.html`; one more `_` for names made of index and underscores, so none is index.html or another's;
    a name too long for the file system is shortened with a stable suffix."""
    return outdir.file_name(program + ("_" if program.rstrip("_") == "index" else ""), ".html", directory)
