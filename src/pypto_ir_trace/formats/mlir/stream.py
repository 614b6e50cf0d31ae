"""--mlir-print-ir-after-all streams (stderr saved to a file): cut into dumps at their header lines.

Dumps in file order; diagnostics between dumps (`loc: error: ...` and the lines that follow them) were
emitted by the pass whose dump comes next, and become that snapshot's warnings.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from pathlib import Path

from ...dump import WHOLE, Dump, Part, Stretch, between_dumps
from ...errors import DumpError
from . import snapshots, split
from .entries import Entry
from .headers import HEADER_PREFIX, HEADER_PROBE
from .ops import of_top_kind, opened_op, single_op
from .scan import DIAGNOSTIC, OWN_OUTPUT, scan

_THREADING = "without disabling multi-threading"
# LLVM's own -print-after-all headers ("; *** IR Dump After InstCombinePass on f ***", "# *** IR Dump ..." for
# machine code): another IR, not read yet, named as what it is
_THREADING_HELP = (
    "the compiler printed an error instead of IR: --mlir-print-ir-module-scope needs "
    "--mlir-disable-threading; add it and run again"
)


def looks_like_stream(path: Path) -> bool:
    """A file with an IR Dump header at a line start near its beginning, or the threading error."""
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(HEADER_PROBE).decode("utf-8", errors="replace")
    except OSError:
        return False
    return head.startswith(HEADER_PREFIX) or f"\n{HEADER_PREFIX}" in head or _THREADING in head


def read_stream(path: Path, part: Part = WHOLE) -> Dump:
    """The stream (or the part of it MLIR printed) as one pipeline (read_chunks cuts a --split-input-file stream
    into its chunks)."""
    file, dumps, notes = _read(path, part)
    return _pipeline(file, dumps, notes)


def read_chunks(path: Path, part: Part = WHOLE) -> tuple[Dump, ...]:
    """The stream's pipelines (or those of the part of it MLIR printed): one per chunk of a --split-input-file run
    (split.py says how they are found)."""
    file, dumps, notes = _read(path, part)
    found = split.chunks(dumps)
    if len(found) == 1:
        return (_pipeline(file, dumps, notes),)
    said = (
        f"{len(found)} runs of the pipeline (a --split-input-file run's chunks, or several compiles: Triton's "
        "kernels), each its own pipeline: a chunk starts where the first pass runs again on IR that names none of "
        "the symbols of the chunk before"
    )
    return tuple(
        replace(_pipeline(file, chunk, [said, *notes]), name=f"chunk {k}: {split.first_symbols(chunk)}")
        for k, chunk in enumerate(found, start=1)
    )


def _pipeline(file: Path, dumps: list[Entry], notes: list[str]) -> Dump:
    return replace(snapshots.dump(file, dumps, list(notes), "mlir-stream"), files=(file,))


def _read(path: Path, part: Part) -> tuple[Path, list[Entry], list[str]]:
    """The stream's dumps, in file order, and what reading them found."""
    file = Path(path)
    if not file.is_file():
        raise DumpError(f"input is not a file: {file}")
    found = scan(file, (_THREADING.encode(),), part)
    if not found.headers:
        if _THREADING.encode() in found.said:
            raise DumpError(f"{file}: {_THREADING_HELP}")
        raise DumpError(f"no IR Dump header line in {file}: is it the stderr of --mlir-print-ir-after-all?")
    notes: list[str] = []
    pending, reported, _ = between_dumps(
        Stretch(file, found.start, found.headers[0].at), DIAGNOSTIC, reports=OWN_OUTPUT
    )
    dumps = []
    for k, (start, row, header) in enumerate(found.headers):
        stop = found.headers[k + 1].at if k + 1 < len(found.headers) else found.end
        at = bisect_right(found.diagnostics, start)
        diag = found.diagnostics[at] if at < len(found.diagnostics) and found.diagnostics[at] < stop else stop
        stretch = Stretch(file, start, diag)
        op_id, local, told = (f"{header.op} {header.sym}", False, False) if header.op else _scope(stretch.read())
        dumps.append(
            Entry(
                header=header,
                filename=f"{file.name}:{row + 1}",
                path=None,
                warnings=pending,
                op_id=op_id,
                local=local,
                ancestors=(),
                where="",
                stretch=stretch,
                told=told,
            )
        )
        pending, report, _ = between_dumps(Stretch(file, diag, stop), DIAGNOSTIC, reports=OWN_OUTPUT)
        reported += report
    if reported:
        notes.append(
            f"{reported} line(s) the compiler printed besides its dumps (reports such as --mlir-timing's, a pass's "
            "own dumps such as Triton's SoftwarePipeliner internal IR Dump): no pass's IR, left out"
        )
    if pending:
        last = dumps[-1]
        dumps[-1] = replace(last, warnings=(last.warnings or "") + pending)
        notes.append("the stream ends with diagnostics after its last dump: they are shown with the last snapshot")
    if any(entry.local for entry in dumps):
        notes.append(
            "headers do not name the op (no --mlir-print-ir-module-scope): a dump that holds one function is "
            "read as a local dump of that function, any other as a dump of the whole IR"
        )
    return file, dumps, notes


def anchors(warnings: str, filename: str) -> list[tuple[int, int, str]]:
    """(log line, 0-based snapshot line, message) for diagnostics that point into the snapshot's own file.

    mlir-opt locates diagnostics in the file it read (`input.mlir:5:3`), not in the dump, so only a
    location in a file of the snapshot's name (a dump fed back to the compiler) names a line of it.
    The header is the dump file's first line, so file line N is snapshot line N - 1.
    """
    own = filename.rsplit(":", 1)[0] if re.search(r":\d+$", filename) else filename
    base = own.rsplit("/", 1)[-1]
    found = []
    for index, line in enumerate(warnings.split("\n")):
        match = DIAGNOSTIC.match(line)
        if match and match["file"].rsplit("/", 1)[-1] == base and int(match["line"]) >= 1:
            found.append((index, int(match["line"]) - 1, f"{match['severity']}: {match['msg']}"))
    return found


def errors(warnings: str) -> list[int]:
    """The log lines that start an error diagnostic (`loc: error: ...`); the lines after it up to the next
    diagnostic (the source line, the caret) belong to it."""
    lines = warnings.split("\n")
    return [i for i, line in enumerate(lines) if (match := DIAGNOSTIC.match(line)) and match["severity"] == "error"]


# A whole dump: past its header line (and blank lines), the top-level module opens
_TOP_MODULE = re.compile(r"[^\n]*\n+(?:builtin\.)?module\b")


def _scope(text: str) -> tuple[str, bool, bool]:
    """The op_id, local and told of a stream dump whose header names no op (IREE prints none at local scope), from
    its text: local when it holds one op and nothing else, a function or a named op around functions
    (`flow.executable @abs_dispatch_0`) by its key; any other op (`util.initializer`, an executable's variant,
    the `module` inside it or the top-level one) by its kind, told by its text (scope.py); else a whole dump.

    A named `module` alone is not enough: it may be the top-level module, which is a whole dump."""
    key = single_op(text)
    if key is not None and (key.startswith("@") or not _TOP_MODULE.match(text)):
        return key, True, False
    kind = opened_op(text, text.find("\n") + 1)
    if kind is None:
        return "", False, False
    # a module may be the top-level one: whole until its text tells otherwise (the splice's)
    return kind, not of_top_kind(kind), True
