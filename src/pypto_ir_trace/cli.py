"""Command line: arguments, exit codes (0 ok, 1 bad dump or I/O, 2 arguments), one-line errors, atomic write."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from . import __version__, builder, render, structure
from .dump import DumpError, split_lines
from .formats import FORMATS, format_of, load

PROG = "pypto-ir-trace"
EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise _UsageError(message)


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
        description="Render a PyPTO passes_dump/ directory as one self-contained HTML report: "
        "which pass changed what, in order.",
    )
    parser.add_argument("passes_dump", help="the dump directory: 00_frontend.py, 01_after_*.py, ... with no index gaps")
    parser.add_argument("-o", "--output", default="ir_trace.html", metavar="PATH",
                        help="report path (default: ir_trace.html); its directory must already exist")
    parser.add_argument("--context", type=_context, default=3, metavar="N",
                        help="unchanged lines kept around each change (default: 3)")
    parser.add_argument("--format", choices=sorted(FORMATS), default=None,
                        help="how to read the input (default: detected from its layout)")
    parser.add_argument("--dump-structure", action="store_true",
                        help="print the functions and methods found in each snapshot, then exit (no report)")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = _arguments().parse_args(argv)
    except _UsageError as err:
        _say("error", f"{err} (see --help)")
        return EXIT_USAGE
    try:
        return _run(args)
    except DumpError as err:
        _say("error", str(err))
    except OSError as err:
        _say("error", f"{err.strerror or err}: {err.filename}" if err.filename else str(err))
    except KeyboardInterrupt:
        _say("error", "interrupted")
        return 130
    except Exception as err:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        _say("internal error", f"{type(err).__name__}: {err} (please report this with the dump)")
    return EXIT_FAILURE


def _say(kind: str, message: str) -> None:
    text = " ".join(message.split()) if kind != "note" else message
    print(f"{PROG}: {kind}: {text}", file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    output = Path(args.output)
    if not args.dump_structure:
        _check_destination(output)
    dumps = load(args.passes_dump, args.format)
    for dump in dumps:
        if dump.redirected:
            _say("note", f"using {Path(args.passes_dump) / 'passes_dump'}")
        for note in dump.notes:
            _say("note", note)
    if args.dump_structure:
        for dump in dumps:
            _print_structure(dump)
        return EXIT_OK
    for dump in dumps:
        if len(dump.snapshots) == 1:
            _say("note", f"the dump holds only {dump.input_file}: no pass snapshot follows it")
    progress = _Progress() if sys.stderr.isatty() else None
    try:
        report = render.render(builder.build(dumps, args.context, progress))
    finally:
        if progress:
            progress.clear()
    _write_atomically(output, report)
    return EXIT_OK


def _check_destination(output: Path) -> None:
    directory = output.parent
    if not directory.is_dir():
        raise DumpError(f"output directory does not exist: {directory}")
    if output.is_dir():
        raise DumpError(f"output path is a directory: {output}")


def _write_atomically(output: Path, text: str) -> None:
    """Write beside the destination and rename over it, so a failure never leaves a partial report."""
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    except OSError as err:
        raise DumpError(f"cannot write the report {output}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.chmod(temp, 0o666 & ~_umask())  # a file to share, not mkstemp's private 0600
        os.replace(temp, output)
    except BaseException as err:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(err, OSError):  # name the report the user asked for, not our temporary file
            raise DumpError(f"cannot write the report {output}: {err.strerror or err}") from None
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


PROGRESS_AFTER = 1.0  # seconds: quick runs stay silent


class _Progress:
    """A `passes done / total` line on a terminal, shown once a run takes more than a second."""

    def __init__(self) -> None:
        self._start = time.monotonic()
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        """done / total counts snapshots; the frontend is not a pass."""
        if time.monotonic() - self._start > PROGRESS_AFTER:
            sys.stderr.write(f"\r{PROG}: {max(done - 1, 0)}/{total - 1} passes")
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
        print(f"{snapshot.filename}: {len(lines)} lines, {len(found.regions)} regions, {verdict}")
        for region in found.regions:
            note = f"  ({region.error})" if region.error else ""
            print(f"  {region.start + 1:>6}-{region.end:<6} {region.kind:<8} {region.key}{note}")
