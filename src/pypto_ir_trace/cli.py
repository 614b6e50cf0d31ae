"""Command line: arguments, exit codes (0 ok, 1 bad dump or I/O, 2 arguments), one-line errors."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import textwrap
import time
from pathlib import Path

from . import __version__, builder, output, programs, render, structure
from .dump import Dump, DumpError, split_lines
from .formats import FORMATS, display_title, format_of, load, units_of
from .terminal import visible

PROG = "pypto-ir-trace"
EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM
DEFAULT_OUTPUT = "ir_trace.html"
UNITS_SHOWN = 3  # codegen units named in the "using ..." note; more are counted


class _UsageError(programs.UsageError):
    pass


class _Terminated(BaseException):
    """SIGTERM (a CI job's timeout): unwinds like Ctrl-C, so every temporary file or directory is removed."""


@contextlib.contextmanager
def _terminate_cleanly():
    def stop(signum, frame):
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (main() called by a caller's worker): leave signals to it
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise _UsageError(message)


def _path(value: str) -> str:
    """A path argument; an empty one would silently mean the current directory or the default report."""
    if not value:
        raise argparse.ArgumentTypeError("must not be empty")
    return value


def _context(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value!r}")
    return number


def _arguments() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Render a compiler's pass dump as one self-contained HTML report: which pass changed what, "
        "in order.",
        epilog=_formats_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("passes_dump", type=_path, help="the dump: a directory or a file in one of the formats below")
    parser.add_argument(
        "-o",
        "--output",
        type=_path,
        default=None,
        metavar="PATH",
        help=f"report path (default: {DEFAULT_OUTPUT}), - for stdout; its directory must already exist "
        f"(with --baseline and two directories of programs: a directory, default {programs.DEFAULT_DIRECTORY}/)",
    )
    parser.add_argument(
        "--context", type=_context, default=3, metavar="N", help="unchanged lines kept around each change (default: 3)"
    )
    parser.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default=None,
        help="how to read the input (default: detected from its layout; the formats are below)",
    )
    parser.add_argument(
        "--baseline",
        type=_path,
        metavar="OTHER_DUMP",
        default=None,
        help="compare with another run of the same program: the first pass where the two differ, "
        "and what differs there (two directories of programs give a directory of reports)",
    )
    parser.add_argument(
        "--dump-structure",
        action="store_true",
        help="print the functions and methods found in each snapshot, then exit (no report)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print errors only (no notes, no summary)")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return parser


def _formats_help() -> str:
    """One paragraph per format record: its --format name, then what such an input is."""
    wrap = textwrap.TextWrapper(width=78, initial_indent="  ", subsequent_indent="    ")
    return "formats:\n" + "\n".join(wrap.fill(f"{record.name}: {record.help}") for record in FORMATS.values())


def main(argv: list[str] | None = None) -> int:
    try:
        args = _arguments().parse_args(argv)
    except _UsageError as err:
        _say("error", f"{err} (see --help)")
        return EXIT_USAGE
    try:
        with _terminate_cleanly():
            return _run(args)
    except programs.UsageError as err:
        _say("error", f"{err} (see --help)")
        return EXIT_USAGE
    except (DumpError, output.OutputError) as err:
        _say("error", str(err))
    except OSError as err:
        _say("error", f"{err.strerror or err}: {err.filename}" if err.filename else str(err))
    except KeyboardInterrupt:
        _say("error", "interrupted")
        return EXIT_INTERRUPTED
    except _Terminated:
        _say("error", "terminated")
        return EXIT_TERMINATED
    except Exception as err:
        _say("internal error", f"{type(err).__name__}: {err} (please report this with the dump)")
    return EXIT_FAILURE


def _say(kind: str, message: str) -> None:
    """One line on stderr; dump text and file names in it are shown with their control characters escaped."""
    print(f"{PROG}: {kind}: {visible(message.strip())}", file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    def note(message: str) -> None:
        if not args.quiet:
            _say("note", message)

    if args.baseline is not None:
        if args.dump_structure:
            raise _UsageError("--dump-structure reads one dump: drop --baseline")
        if programs.is_root(Path(args.passes_dump)) or programs.is_root(Path(args.baseline)):
            return _run_programs(args, note)
    elif (message := programs.several(Path(args.passes_dump))) is not None:
        raise DumpError(message)
    dumps = load(args.passes_dump, args.format)
    baseline = load(args.baseline, args.format) if args.baseline is not None else ()
    left_out = programs.not_compared(dumps, baseline) if baseline else []
    if baseline:
        programs.check_formats(dumps, baseline, args.passes_dump, args.baseline)
    for path, side in ((args.passes_dump, dumps), (args.baseline, baseline)):
        if side and (read := _read_from(Path(path), side, with_units=not baseline)):
            note(f"using {read}")
    if args.dump_structure:
        with output.reader_may_leave():
            for dump in dumps:
                _print_structure(dump)
        return EXIT_OK
    args.output = args.output or DEFAULT_OUTPUT
    output.check(args.output, keep=[path for dump in dumps + baseline for path in output.dump_files(dump)])
    _check_not_read(args.output, ((args.passes_dump, dumps), (args.baseline, baseline)))
    shown = dumps[:1] + baseline[:1] if baseline else dumps  # a pair's report holds only each side's first
    for dump in shown:
        named = f"{dump.name or dump.title}: " if len(shown) > 1 else ""
        if args.format is None:  # detection is stated; a forced format needs no confirmation
            note(f"{named}reading {format_of(dump).description}, {len(dump.snapshots)} snapshots")
        for line in dump.notes:
            note(named + line)
        if len(dump.snapshots) == 1:
            note(f"{named}the dump holds only {dump.input_file}: no pass snapshot follows it")
        for failed in (s for s in dump.snapshots if s.failed):  # a CI log says it without opening the report
            note(f"{named}{failed.label} {failed.name} failed: the pipeline stopped there ({failed.filename})")
    if left_out:  # a compile output holds a pipeline per ptoas unit too: compare one by giving its folder
        note(
            f"--baseline compares the two runs' {dumps[0].name} pipelines; not compared: {', '.join(left_out)} "
            f"(give a unit's folder to compare it, e.g. {units_of(args.passes_dump) / left_out[0]})"
        )
    progress = _Progress() if sys.stderr.isatty() else None
    try:
        if baseline:
            report = programs.build_pair(dumps, baseline, args.context, progress)
        else:
            # several pipelines (a compile output's) are one program: titled by the folder the user named
            title = display_title(Path(args.passes_dump)) if len(dumps) > 1 else None
            report = builder.build(dumps, args.context, progress, title=title)
        page = render.render(report)
    finally:
        if progress:
            progress.clear()
    whole = output.write(args.output, page)
    if whole and not args.quiet:  # a reader that left early (`| head`) did not get the report: say nothing
        where = "the report to stdout" if args.output == output.STDOUT else args.output
        scope = f"the {dumps[0].name} pipelines" if left_out else "the two runs"
        print(visible(f"{PROG}: wrote {where}: {_summary(report, scope)}"), file=sys.stderr)
    return EXIT_OK


def _check_not_read(report: str, inputs) -> None:
    """Refuse a report path that reading an input would take for one of its files: the next run would
    read the report as a pass, or fail on it."""
    if report == output.STDOUT:
        return
    where = Path(os.path.realpath(report))
    for given, dumps in inputs:
        if any(format_of(dump).reads_path(Path(given), where) for dump in dumps):
            raise output.OutputError(
                f"refusing to write the report to {report}: reading {given} would read it as one of its dump "
                "files (give -o a path outside the dump, or another name)"
            )


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


def _run_programs(args: argparse.Namespace, note) -> int:
    """Two directories of programs: a directory with an index page and one two-run report per program."""
    progress = _Progress("programs", first=0) if sys.stderr.isatty() else None
    try:
        done = programs.run(
            args.passes_dump, args.baseline, args.output, args.format, args.context, progress, note=note
        )
    finally:
        if progress:
            progress.clear()
    note(done)
    return EXIT_OK


def _summary(report, scope: str = "the two runs") -> str:
    if report.runs is not None:
        rows = report.runs.rows
        first = report.runs.first_divergent
        if not report.runs.inputs.identical:  # what a pass did cannot part runs that differ from the start
            where = "the runs differ already in their input"
        elif first is not None:
            where = f"first divergent after {programs.row_name(report, rows[first])}"
        else:
            where = f"{scope} print identical IR after every pass"
        return f"two runs, {len(rows)} aligned passes, {where}"
    passes = [p for pipeline in report.pipelines for p in pipeline.passes]
    changed = sum(p.before != p.after for p in passes)
    pipelines = f"{len(report.pipelines)} pipelines, " if len(report.pipelines) > 1 else ""
    return f"{pipelines}{len(passes)} passes, {changed} changed"


PROGRESS_AFTER = 1.0  # seconds: quick runs stay silent


class _Progress:
    """A `passes done / total` line on a terminal, shown once a run takes more than a second."""

    def __init__(self, unit: str = "passes", first: int = 1) -> None:
        self._unit, self._first = unit, first  # snapshots count from the input, which is not a pass
        self._start = time.monotonic()
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        """done / total counts snapshots; the input is not a pass."""
        if time.monotonic() - self._start > PROGRESS_AFTER:
            sys.stderr.write(f"\r{PROG}: {max(done - self._first, 0)}/{total - self._first} {self._unit}")
            sys.stderr.flush()
            self._shown = True

    def clear(self) -> None:
        if self._shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _print_structure(dump) -> None:
    language = format_of(dump).language
    for snapshot in dump.snapshots:
        lines, _ = split_lines(snapshot.text)
        found = language.analyze(structure.parse(lines, language), lines)
        verdict = "trusted" if found.trusted else f"UNTRUSTED: {found.reason}"
        print(visible(f"{snapshot.filename}: {len(lines)} lines, {len(found.regions)} regions, {verdict}"))
        for region in found.regions:
            note = f"  ({region.error})" if region.error else ""
            print(visible(f"  {region.start + 1:>6}-{region.end:<6} {region.kind:<8} {region.key}{note}"))
