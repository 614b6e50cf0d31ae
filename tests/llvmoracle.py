"""An oracle of LLVM dumps, computed from the dump's text alone (no code of the package): which pass changed which
function. For each function, its text in consecutive dumps that print it whole (a function, SCC or module dump,
IR or machine code) is compared; a pair with a loop dump of that function between them is left out (the loop
dumps show only part of it), and so is a function's first text. For loops, consecutive dumps of one function's
loop that print the same loop header label are compared. Two texts are the same when they differ only in how
their metadata and attribute groups are numbered (LLVM numbers them afresh in each print): each `!N` and `#N` is
read as the order in which the text first names it."""

from __future__ import annotations

import re
from pathlib import Path

_FILTERS = Path(__file__).resolve().parents[1] / "grammars" / "llvm" / "filters.tokens"

_HEADER = re.compile(r"^(?:; |# )?\*\*\* IR (?:Dump (?:After|Before|At Start)|Pass)(?P<rest>.*)$")
_NUMBERED = re.compile(r"[!#]\d+\b")  # a metadata node, an attribute group
_LOOP = re.compile(r" on loop %.* in function (?P<function>\S+?)(?: \(invalidated\))? \*\*\*")


# What the compiler says between dumps, never IR: a diagnostic (`f.c:3:1: remark: ...`, the source lines under it
# follow), -debug-pass-manager's log (`Running pass: X on f`) or a report's first line (-ftime-report's banner,
# clang -print-stats' `STATISTICS:`, a release build's "Statistics are disabled..."); a dump's body ends at the
# first such line
_SAID = re.compile(
    r"^(?:\S+:\d+(?::\d+)?: (?:error|fatal error|warning|note|remark): "
    r"|Running (?:pass|analysis): |Skipping pass: |Invalidating |Clearing all analysis results for: |===-+===$"
    r"|STATISTICS:$|Statistics are disabled\. )"
)


def dumps(path: Path, hide: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    """(header, body lines) of each header line of the file, in order; the lines filtered by the filters named."""
    shown = _filter(hide)
    found: list[tuple[str, list[str]]] = []
    ended = False  # the body met what the compiler said after it
    for line in path.read_text(encoding="utf-8").split("\n"):
        if _HEADER.match(line):
            found.append((line, []))
            ended = False
        elif _SAID.match(line):
            ended = True
        elif found and not ended and (kept := shown(line)) is not None:
            found[-1][1].append(kept)
    return found


def _filter(hide: tuple[str, ...]):
    """line -> the line as the filters named show it, None when hidden."""
    patterns: dict[str, list[str]] = {"line": [], "part": []}
    for entry in _FILTERS.read_text(encoding="utf-8").splitlines():
        if entry.strip() and not entry.startswith("#"):
            name, what, pattern = entry.split(None, 2)
            if name in hide and what in patterns:
                patterns[what].append(pattern)
    whole = re.compile("|".join(patterns["line"])) if patterns["line"] else None
    part = re.compile("|".join(patterns["part"])) if patterns["part"] else None
    return lambda line: None if whole and whole.search(line) else part.sub("", line) if part else line


def functions(body: list[str]) -> dict[str, str]:
    """name -> text of each function (`define` to the `}` at column 0, with the comments right above) and each
    machine function (`# Machine code for function` to its end line, keyed "machine NAME")."""
    found = {}
    for row, line in enumerate(body):
        if line.startswith("define "):
            name = re.search(r'@("[^"]*"|[-\w.$]+)', line)[1].strip('"')
            start = row
            while start > 0 and body[start - 1].startswith("; "):
                start -= 1
            stop = body.index("}", row) + 1
            found[name] = "\n".join(body[start:stop])
        elif line.startswith("# Machine code for function "):
            name = line.removeprefix("# Machine code for function ").split(":")[0]
            stop = next(k for k in range(row, len(body)) if body[k].startswith("# End machine code for function "))
            found[f"machine {name}"] = "\n".join(body[row : stop + 1])
    return found


def is_input(header: str, body: list[str], first: bool) -> bool:
    """Whether a dump is the pipeline's input: At Start, or the first dump when it prints the module before its
    pass."""
    module = any(line.startswith("; ModuleID = ") for line in body[:3])
    return "At Start" in header or (first and "IR Dump Before " in header and module)


def labelled(path: Path, hide: tuple[str, ...] = ()):
    """(label, header line, header, body) of each dump but "filtered out" lines: labels count the file's dumps
    from 1 (the input is 0: print-changed's At Start, or a module printed before the first pass); header lines
    count from 1, as the report's `file` names them."""
    rows = [
        row for row, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1) if _HEADER.match(line)
    ]
    label, first = 0, True
    for row, (header, body) in zip(rows, dumps(path, hide), strict=True):
        if "filtered out ***" in header:
            continue
        if not is_input(header, body, first):
            label += 1
        first = False
        yield label, row, header, body


def changes(path: Path, hide: tuple[str, ...] = ()) -> dict[tuple[int, str], bool]:
    """(pass label, function) -> whether the pass changed the function, for the pairs the module docstring
    keeps (labels as `labelled` counts them); `hide`: the filters applied to the dump's lines first. A module
    printed under another ID than the one before is another compilation's: no text before it is compared with
    a text after it."""
    last: dict[str, str] = {}  # function -> its latest whole text
    loop_since: set[str] = set()  # functions with a loop dump since their latest whole text
    last_loop: dict[str, tuple[str, str]] = {}  # function -> (header label, text) of its latest loop dump
    found: dict[tuple[int, str], bool] = {}
    module = None
    for label, _, header, body in labelled(path, hide):
        if "omitted because no change" in header or " ignored ***" in header:
            continue
        named = next((line for line in body[:3] if line.startswith("; ModuleID = ")), None)
        if named is not None:
            if module is not None and named != module:
                last, loop_since, last_loop = {}, set(), {}
            module = named
        loop = _LOOP.search(header)
        printed = functions(body)
        if loop and not printed:
            function = loop["function"]
            header_label = next((body[k + 1].split(":")[0] for k, line in enumerate(body) if line == "; Loop:"), "")
            text = "\n".join(body).strip("\n")  # the last dump holds the file's final newline
            if function in last_loop and last_loop[function][0] == header_label:
                found[label, f"a loop of {function}"] = numbered_by_order(last_loop[function][1]) != numbered_by_order(
                    text
                )
            last_loop[function] = (header_label, text)
            loop_since.add(function)
            continue
        for name, text in printed.items():
            if name in last and name not in loop_since:
                found[label, name.removeprefix("machine ")] = numbered_by_order(last[name]) != numbered_by_order(text)
            last[name] = text
            loop_since.discard(name)
            last_loop.pop(name, None)
    return found


def numbered_by_order(text: str) -> str:
    """The text with each metadata node's and attribute group's number replaced by the order in which the text
    first names it."""
    order: dict[str, str] = {}
    return _NUMBERED.sub(lambda match: order.setdefault(match.group(), f"!<{len(order)}>"), text)
