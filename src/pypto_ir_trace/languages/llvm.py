"""LLVM IR and machine code as a language: functions found by the lines LLVM prints at column 0, highlighting,
value names and ops by a tokenizer (grammars/llvm/*.tokens), never a parse of the whole text.

Why no tree-sitter: tree-sitter-llvm 1.1.0 (PyPI) lacks LLVM 19 syntax (`range(...)`, `trunc nuw`: 884 error
nodes in the last module dump of lz4.c at -O2) and parses 2.5 MB/s, about 60 s for the 156 MB of that run; the
function boundaries are LLVM's own layout, exact and cheap to read, and each instruction is one line, so a
tokenizer reads only the lines never seen before (517,852 distinct lines of 4 million there).

Regions:
- a function: its `define` line at column 0, with the comment lines right above it (`; Function Attrs: ...`),
  to the `}` at column 0 that closes it; keyed by its symbol (`@foo` is `foo`, a quoted name unquoted), kind
  "function";
- a machine function (llc): `# Machine code for function foo: ...` to `# End machine code for function foo.`,
  keyed `foo` too, kind "machine function".
Declarations (`declare`), globals, metadata and attributes are outside every region. A region whose end is not
printed (another `define`, or the end of the text, before its `}`) makes the snapshot untrusted: where the
function ends cannot be told. Nothing else can be uncertain: there is no parse to fail.
"""

from __future__ import annotations

import re
from functools import cache

from .. import grammar
from ..structure import Region, Structure, numbered

NAME = "llvm"
_DEFINE = "define "
_SYMBOL = re.compile(r'@("(?:[^"\\]|\\.)*"|[-\w.$]+)')
_MACHINE_START = "# Machine code for function "
_MACHINE_END = "# End machine code for function "


def analyze_lines(lines: list[str]) -> Structure:
    """The functions of a text and the verdict; the module docstring gives the rules."""
    # Only lines that start with `d`, `}` or `#` can open or close a region: the rest are passed over at C speed.
    marks = [row for row, line in enumerate(lines) if line[:1] in _MARKS]
    found: list[tuple[int, int, str, str, int]] = []
    problem = None
    at = 0
    while at < len(marks):
        row = marks[at]
        line = lines[row]
        opens = _opening(line)
        if opens is None:
            at += 1
            continue
        kind, name, end, start = opens
        stop, at = _closing(lines, marks, at + 1, end, start)
        if stop is None:
            problem = problem or f"{name or 'a function'} (line {row + 1}) has no closing {end.strip()}"
            stop = marks[at] if at < len(marks) else len(lines)
        first = _comments_above(lines, row) if kind == "function" else row
        found.append((first, stop, name or f"line {row + 1}", kind, row))
    regions = tuple(
        Region(key, kind, start, stop, def_row)
        for (start, stop, _, kind, def_row), key in zip(found, numbered(name for _, _, name, _, _ in found))
    )
    return Structure(regions, trusted=problem is None, reason=problem)


_MARKS = frozenset("d}#")


def _opening(line: str) -> tuple[str, str | None, str, str] | None:
    """(kind, name, the line that ends it, the line that opens another) when the line opens a region."""
    if line.startswith(_DEFINE):
        return "function", symbol_of(line), "}", _DEFINE
    if line.startswith(_MACHINE_START):
        return "machine function", line[len(_MACHINE_START) :].split(":", 1)[0], _MACHINE_END, _MACHINE_START
    return None


def _closing(lines: list[str], marks: list[int], at: int, end: str, start: str) -> tuple[int | None, int]:
    """(one past the closing line, the next mark to look at) from marks[at] on; None when a line opening another
    region comes first (then that mark is next)."""
    while at < len(marks):
        line = lines[marks[at]]
        if line.startswith(end) and (end != "}" or line.rstrip() == "}"):
            return marks[at] + 1, at + 1
        if line.startswith(start):
            return None, at
        at += 1
    return None, at


def symbol_of(define: str) -> str | None:
    """The function a `define` line names, unquoted (`@"a b"` is `a b`)."""
    match = _SYMBOL.search(define)
    if match is None:
        return None
    name = match[1]
    return name[1:-1] if name.startswith('"') else name


def _comments_above(lines: list[str], row: int) -> int:
    """The first of the comment lines right above `row` (LLVM prints `; Function Attrs: ...` there)."""
    while row > 0 and lines[row - 1].startswith("; ") and not lines[row - 1].startswith("; *** "):
        row -= 1
    return row


@cache
def _table(name: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """grammars/llvm/<name>.tokens: (kind, pattern) in order; a `#` line is a comment."""
    return tuple((kind, re.compile(pattern)) for kind, pattern in grammar.token_entries(NAME, name, 2))


@cache
def _tokens() -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern of every token kind, each kind's alternatives a named group, after whatever lies between
    tokens (its `between` entries, passed over possessively: none of them starts a token, so nothing is
    lost); and each group's class by name."""
    table = _table("highlights")
    between = "|".join(regex.pattern for kind, regex in table if kind == "between")
    kinds = [(f"t{i}", kind, regex.pattern) for i, (kind, regex) in enumerate(table) if kind != "between"]
    tokens = "|".join(f"(?P<{group}>{pattern})" for group, _, pattern in kinds)
    pattern = f"(?:{between})*+(?:{tokens})" if between else tokens
    return re.compile(pattern), {group: kind for group, kind, _ in kinds}


def classes() -> tuple[str, ...]:
    """The highlight classes the tokens give, read from the table's kinds: every report's class table names them,
    and compiling the tokens' patterns costs 15 ms (a run that reads no LLVM never does)."""
    return tuple(sorted({kind for kind, _ in grammar.token_entries(NAME, "highlights", 2) if kind != "between"}))


def tokens(line: str) -> list[tuple[int, int, str]]:
    """(start, end, class) of each token of a line, in order, as characters."""
    pattern, kinds = _tokens()
    found = []
    for match in pattern.finditer(line):
        group = match.lastgroup or ""  # always a token's: the pattern matches none without one
        start, end = match.span(group)
        if end > start:
            found.append((start, end, kinds[group]))
    return found


_NUMBERED = re.compile(r"[!#]\d+$")  # metadata !7, attribute group #0: numbered as the printer meets them


def names(line: str, found: list[tuple[int, int, str]] | None = None) -> list[tuple[int, int]]:
    """The spans of the names a pass may renumber: SSA values (%12, %x; a machine register class after `:` left
    out), block labels, numbered metadata (!7) and attribute groups (#0: a function dump numbers its own groups
    from #0, a module dump the module's); physical registers ($rdi) are not names. `found`: the line's tokens,
    when the caller has them."""
    spans = []
    for start, end, kind in tokens(line) if found is None else found:
        word = line[start:end]
        if kind in ("variable", "label") and not word.startswith("$"):
            colon = word.find(":", 1)
            spans.append((start, start + colon if colon > 0 and not word.startswith('%"') else end))
        elif kind == "constant" and _NUMBERED.match(word):
            spans.append((start, end))
    return spans


def op_spans(line: str) -> tuple[tuple[int, int], ...]:
    """Where the op a line runs is (grammars/llvm/ops.tokens), or nowhere: its columns, for a line of the same
    shape names another op there (`MOV32rr`, `MOV64rr`)."""
    if not line[:1].isspace():
        return ()
    for _, pattern in _table("ops"):
        match = pattern.match(line)
        if match is not None:
            return (match.span("op"),)
    return ()


def demangled(key: str) -> str | None:
    """A function's name as users read it: a C++ (`_Z...`), Rust (`_R...`, legacy `_ZN...h<hash>E`) or Swift
    (`$s...`) symbol demangled by pydemumble (demumble: LLVM's own demanglers); None for a name that is not
    mangled, or when pydemumble is not installed. A repeated name's "#2" stays after it."""
    name, mark, count = key.rpartition("#")
    if not (mark and count.isdigit()):
        name, mark, count = key, "", ""
    if not name.startswith(("_Z", "_R", "$s", "$S", "_T", "__Z")):
        return None
    found = _demangle(name)
    return f"{found}{mark}{count}" if found else None


@cache
def _demangle(name: str) -> str:
    try:
        import pydemumble  # type: ignore[import-untyped]
    except ImportError:  # an optional nicety: the mangled names still name every function
        return ""
    return pydemumble.demangle(name) or ""
