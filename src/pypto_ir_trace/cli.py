"""Command line: arguments, exit codes (0 ok, 1 bad dump or I/O, 2 arguments, 3 runs differ under --check),
one-line errors. A shell over the API (api.py): what to call, what to print, which exit code."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import __version__, allocator, api, outdir, output, programs, summary
from .errors import IRTraceError, UsageError
from .formats import FORMATS
from .terminal import decodable, decodable_json, visible

PROG = "pypto-ir-trace"
EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
EXIT_DIFFERS = 3  # --check: the runs differ (everything is written first); never without --check
EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM
DEFAULT_OUTPUT = "ir_trace.html"


class _Terminated(BaseException):
    """SIGTERM (a CI job's timeout): unwinds like Ctrl-C, so every temporary file or directory is removed."""


# what each signal unwinds the run with
_RAISED: dict[int, type[BaseException]] = {signal.SIGINT: KeyboardInterrupt, signal.SIGTERM: _Terminated}


@contextlib.contextmanager
def _stop_on_signals():
    """Ctrl-C and SIGTERM unwind the run (KeyboardInterrupt, _Terminated): every temporary file, directory and
    worker goes. Only the first signal raises, so that a second one cannot cut that clean-up short. A run that
    received one ends with it, whatever became of its exception: Python drops one raised in a finalizer or a
    fork hook (the run goes on), a C library turns one raised in its callback into its own error
    (tree-sitter's QueryError while it compiles a pattern)."""
    received: list[int] = []

    def stop(signum, frame):
        received.append(signum)
        if len(received) == 1:
            raise _RAISED[signum]

    previous = {}
    try:
        for signum in _RAISED:
            if signal.getsignal(signum) is not signal.SIG_IGN:  # an ignored signal stays ignored (nohup, `&`)
                previous[signum] = signal.signal(signum, stop)
    except ValueError:  # not the main thread (main() called by a caller's worker): leave signals to it
        pass
    try:
        yield
    except Exception:
        if not received:
            raise
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if received:
        raise _RAISED[received[0]]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise UsageError(message)


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
    _output_argument(parser, REPORT)
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
        "--label",
        type=_path,
        metavar="NAME",
        default=None,
        help="with --baseline: this run's name in the report, the summaries and the notes (default: its title, or "
        "the part of its path that differs from the baseline's)",
    )
    parser.add_argument(
        "--baseline-label", type=_path, metavar="NAME", default=None, help="with --baseline: the baseline's name"
    )
    parser.add_argument(
        "--pipeline",
        type=_path,
        metavar="NAME",
        default=None,
        help="with --baseline: the pipeline to compare where the dumps hold several (an LLVM compilation, an MLIR "
        "--split-input-file chunk, a ptoas unit; default: the first), as the Pipeline selector names it",
    )
    parser.add_argument(
        "--dump-structure",
        action="store_true",
        help="print the functions and methods found in each snapshot, then exit (no report)",
    )
    _summary_arguments(parser)
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="worker processes for two directories of programs (default: the machine's cores); the output is "
        "the same whatever N",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print errors only (no notes, no summary)")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return parser


@dataclass(frozen=True)
class _Output:
    """A file the command writes: the argument parser, the checks before the run and the writer all read this."""

    flags: tuple[str, ...]  # the first one is how messages name it
    help: str
    write: Callable[[str, dict], None] | None = None  # a summary's writer, given its path and the summary
    merged: str = ""  # its help for `merge`, when it says something else there

    @property
    def option(self) -> str:
        return self.flags[0]

    @property
    def dest(self) -> str:
        """Its attribute in the parsed arguments, as argparse names it after the long flag."""
        return self.flags[-1].lstrip("-").replace("-", "_")


def _write_json(path: str, found: dict) -> None:
    output.write(path, map(decodable_json, summary.json_chunks(found)))


def _write_markdown(path: str, found: dict) -> None:
    output.write(path, decodable(summary.markdown(found)))


REPORT = _Output(
    ("-o", "--output"),
    f"report path (default: {DEFAULT_OUTPUT}), - for stdout; its directory must already exist "
    f"(with --baseline and two directories of programs: a directory, default {programs.DEFAULT_DIRECTORY}/)",
)
# A name that is not UTF-8 is shown by its bytes in every summary, as everywhere.
SUMMARIES = (
    _Output(
        ("--summary-json",),
        "also write what the report shows as JSON (its schema: summary.schema.json in the package), - for stdout",
        _write_json,
        merged="write the merged summary there (default: stdout)",
    ),
    _Output(
        ("--summary-md",),
        "also write a short Markdown summary (for $GITHUB_STEP_SUMMARY or a pull-request comment)",
        _write_markdown,
    ),
)
OUTPUTS = (REPORT, *SUMMARIES)


def _output_argument(parser: argparse.ArgumentParser, out: _Output, merging: bool = False) -> None:
    help = out.merged if merging and out.merged else out.help
    parser.add_argument(*out.flags, dest=out.dest, type=_path, default=None, metavar="PATH", help=help)


def _summary_arguments(parser: argparse.ArgumentParser, merging: bool = False) -> None:
    """The options for CI, shared with `merge`."""
    for out in SUMMARIES:
        _output_argument(parser, out, merging)
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"exit {EXIT_DIFFERS} when the two runs differ (any program, for directories), after writing everything",
    )


def _jobs(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value!r}")
    return number


def _merge_arguments() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=f"{PROG} merge",
        description="Merge the --summary-json files of shards of two roots of programs (each shard compared "
        "into its own directory) into one summary; each program's report path is its shard's directory joined "
        "to its file name. (A dump named merge is given as ./merge.)",
    )
    parser.add_argument("summaries", nargs="+", type=_path, metavar="SUMMARY", help="a shard's --summary-json file")
    parser.add_argument(
        "--allow-mixed",
        action="store_true",
        help="merge shards that compared other roots too (refused by default: one merge, one comparison)",
    )
    _summary_arguments(parser, merging=True)
    parser.set_defaults(output=None)
    return parser


def _formats_help() -> str:
    """One paragraph per format record: its --format name, then what such an input is."""
    wrap = textwrap.TextWrapper(width=78, initial_indent="  ", subsequent_indent="    ")
    formats = "formats:\n" + "\n".join(wrap.fill(f"{record.name}: {record.help}") for record in FORMATS.values())
    merge = wrap.fill(
        f"{PROG} merge SUMMARY... merges the --summary-json files of a root sharded across CI jobs "
        f"(see {PROG} merge --help)"
    )
    return f"{formats}\n\nsharded roots:\n{merge}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    merging = bool(argv) and argv[0] == "merge"
    hint = "merge --help" if merging else "--help"
    try:
        args = (_merge_arguments() if merging else _arguments()).parse_args(argv[1:] if merging else argv)
        _check_arguments(args, merging)
    except UsageError as err:
        _say("error", f"{err} (see {hint})")
        return EXIT_USAGE
    allocator.return_large_blocks()
    try:
        with _stop_on_signals():
            return _merge(args) if merging else _run(args)
    except UsageError as err:
        _say("error", f"{err} (see {hint})")
        return EXIT_USAGE
    except IRTraceError as err:
        _say("error", str(err))
    except OSError as err:
        _say("error", f"{err.strerror or err}: {err.filename}" if err.filename else str(err))
    except KeyboardInterrupt:
        _say("error", "interrupted")
        _interrupt_handled()
        return EXIT_INTERRUPTED
    except _Terminated:
        _say("error", "terminated")
        return EXIT_TERMINATED
    except Exception as err:
        _say("internal error", f"{type(err).__name__}: {err} (please report this with the dump)")
    return EXIT_FAILURE


def _interrupt_handled() -> None:
    """CPython marks a KeyboardInterrupt that leaves code it ran from text as unhandled, even once caught: a
    dataclass's methods are such text, built when a module imported lazily, after the handlers are set, defines
    it. `python -m pypto_ir_trace` would then end by SIGINT itself instead of with 130. Running any text clears
    the mark."""
    exec("")


def _say(kind: str, message: str) -> None:
    """One line on stderr; dump text and file names in it are shown with their control characters escaped."""
    print(f"{PROG}: {kind}: {visible(message.strip())}", file=sys.stderr)


def _check_arguments(args: argparse.Namespace, merging: bool) -> None:
    """Combinations argparse cannot refuse: two things to stdout, a summary with no report to summarise."""
    if not merging:
        if args.dump_structure and (any(_path_of(args, out) for out in SUMMARIES) or args.check):
            raise UsageError(
                f"--dump-structure prints the structure only: drop {', '.join(out.option for out in SUMMARIES)} "
                "and --check"
            )
        if args.check and args.baseline is None:
            raise UsageError("--check gates on two runs differing: give --baseline")
        if (args.label or args.baseline_label) and args.baseline is None:
            raise UsageError("--label and --baseline-label name the two runs: give --baseline")
        if args.pipeline is not None and args.baseline is None:
            raise UsageError("--pipeline picks the pipeline two runs compare: give --baseline")
    to_stdout = [out.option for out in OUTPUTS if _path_of(args, out) == output.STDOUT]
    if len(to_stdout) > 1:
        raise UsageError(f"{' and '.join(to_stdout)} both write to stdout: give one of them a file")
    files = [path for out in OUTPUTS if (path := _path_of(args, out)) and path != output.STDOUT]
    real = [os.path.realpath(path) for path in files]
    if len(set(real)) < len(real):
        raise UsageError("the report and the summaries need paths of their own (two of them are one file)")


def _path_of(args: argparse.Namespace, out: _Output) -> str | None:
    return getattr(args, out.dest)


def _run(args: argparse.Namespace) -> int:
    def note(message: str) -> None:
        if not args.quiet:
            _say("note", message)

    if args.baseline is not None:
        if args.dump_structure:
            raise UsageError("--dump-structure reads one dump: drop --baseline")
        if programs.is_root(Path(args.passes_dump)) or programs.is_root(Path(args.baseline)):
            if args.pipeline is not None:
                raise UsageError(
                    "--pipeline picks a pipeline of two dumps: two directories of programs compare each program's first"
                )
            return _run_programs(args, note)
    progress = _Progress() if sys.stderr.isatty() else None
    report = api.build_report(
        args.passes_dump,
        baseline=args.baseline,
        context=args.context,
        format=args.format,
        progress=progress,
        label=args.label,
        baseline_label=args.baseline_label,
        pipeline=args.pipeline,
    )
    for line in report.read_from:
        note(line)
    if args.dump_structure:
        with output.reader_may_leave():
            for line in report.structure():
                print(visible(line))
        return EXIT_OK
    args.output = args.output or DEFAULT_OUTPUT
    report.check(args.output)  # before the notes, as before the long part
    _check_summaries(args, lambda path, option: report.check(path, what="summary", option=option))
    for line in report.notes:
        note(line)
    try:
        whole = report.write(args.output)
    finally:
        if progress:
            progress.clear()
    found = report.summary()
    if whole and not args.quiet:  # a reader that left early (`| head`) did not get the report: say nothing
        where = "the report to stdout" if args.output == output.STDOUT else args.output
        scope = f"the {report.compared} pipelines" if report.not_compared else "the two runs"
        print(visible(f"{PROG}: wrote {where}: {_summary(found, scope)}"), file=sys.stderr)
    _write_summaries(args, found)
    return EXIT_DIFFERS if args.check and summary.differs(found) else EXIT_OK


def _check_summaries(args: argparse.Namespace, check: Callable[[str, str], None], roots: tuple[Path, ...] = ()) -> None:
    """Refuse, before the long run, summary paths that cannot be written or would overwrite an input, or that
    lie in the directory of reports (a later run would refuse to replace a directory holding them);
    check(path, option): the inputs' own refusal, as the report's (-o) for a dump, naming the option."""
    for out in SUMMARIES:
        path = _path_of(args, out)
        if path is None or path == output.STDOUT:
            continue
        if roots:
            outdir.check_outside(Path(path), roots[0], roots[1:], "summary")
        check(path, out.option)


def _write_summaries(args: argparse.Namespace, found: dict) -> None:
    """The summaries asked for."""
    for out in SUMMARIES:
        if (path := _path_of(args, out)) and out.write:
            with output.reader_may_leave():
                out.write(path, found)


def _run_programs(args: argparse.Namespace, note) -> int:
    """Two directories of programs: a directory with an index page and one two-run report per program."""
    target = Path(args.output or programs.DEFAULT_DIRECTORY)
    roots = (target, Path(args.passes_dump), Path(args.baseline))
    _check_summaries(args, lambda path, option: output.check(path, what="summary", option=option), roots)
    progress = _Progress("programs", first=0) if sys.stderr.isatty() else None
    try:
        done = api.compare_programs(
            args.passes_dump,
            args.baseline,
            args.output or programs.DEFAULT_DIRECTORY,
            jobs=args.jobs,
            context=args.context,
            format=args.format,
            progress=progress,
            notes=note,
            label=args.label,
            baseline_label=args.baseline_label,
        )
    finally:
        if progress:
            progress.clear()
    changed = sum(program.status != "identical" for program in done.programs)
    unseen = done.not_compared
    left = f" (each program's first pipeline compared; not compared: {', '.join(unseen)})" if unseen else ""
    note(f"{len(done.programs)} programs, {changed} not identical{left}: {done.index}")
    for program in done.unreadable:  # last, where a CI log is read; in name order, however the workers finished
        _say("error", f"{program.name}: {program.error}")
    _write_summaries(args, done.summary())
    if done.unreadable:
        return EXIT_FAILURE
    return EXIT_DIFFERS if args.check and done.differs else EXIT_OK


def _merge(args: argparse.Namespace) -> int:
    """`merge`: the shards' summaries as one, written to --summary-json (default stdout) and --summary-md."""
    merged = api.merge_summaries(args.summaries, allow_mixed=args.allow_mixed)
    if args.summary_json is None and args.summary_md != output.STDOUT:
        args.summary_json = output.STDOUT
    shards = [Path(path) for path in args.summaries]
    _check_summaries(
        args, lambda path, option: output.check(path, shards, what="summary", option=option, kept="a shard")
    )
    _write_summaries(args, merged)
    if merged["counts"]["unreadable"]:
        return EXIT_FAILURE
    return EXIT_DIFFERS if args.check and summary.differs(merged) else EXIT_OK


def _summary(found: dict, scope: str = "the two runs") -> str:
    """The `wrote ...` line's account of a report, from its summary."""
    if found["kind"] == "runs":
        first = found["firstDivergent"]
        if not found["inputs"]["identical"]:  # what a pass did cannot part runs that differ from the start
            where = "the runs differ already in their input"
        elif first is not None:
            where = f"first divergent after {first['pass']}"
        else:
            where = f"{scope} print identical IR after every pass"
        return f"two runs, {len(found['rows'])} aligned passes, {where}"
    passes = [p for pipeline in found["pipelines"] for p in pipeline["passes"]]
    changed = sum(not p["noOp"] for p in passes)
    pipelines = f"{len(found['pipelines'])} pipelines, " if len(found["pipelines"]) > 1 else ""
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
