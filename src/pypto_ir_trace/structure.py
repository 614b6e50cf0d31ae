"""Structure: the regions (functions, methods) of a snapshot, with line spans and how far they can be trusted.

tree-sitter always returns a tree, so "could not be parsed" is defined per language (languages/*.py);
this module holds the records and what every language shares: the bytes the parser sees and where
the errors are.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import NamedTuple

from tree_sitter import Node, Parser, Tree


@dataclass(frozen=True)
class Region:
    key: str  # qualified name: "Program.main", "helper"; a repeated name gets "#2", "#3", ...
    kind: str  # "function" or "method"
    start: int  # first line, 0-based, decorators included
    end: int  # one past the last line
    def_line: int  # the line that names it (the `def`, below any decorators)
    # why the region is marked (a syntax error lies inside it), `{line}` standing for the line it names: a region
    # read in a piece of its text (chunked.py) is moved to its place with that line
    problem: str | None = None
    problem_row: int = 0  # the line `{line}` names, 0-based

    @property
    def error(self) -> str | None:
        """What is wrong inside the region, as users read it; None: nothing."""
        return self.problem.replace(LINE, str(self.problem_row + 1)) if self.problem else None

    def moved(self, shift: int) -> Region:
        """The region `shift` lines further down."""
        return replace(
            self,
            start=self.start + shift,
            end=self.end + shift,
            def_line=self.def_line + shift,
            problem_row=self.problem_row + shift if self.problem else 0,
        )


LINE = "{line}"  # in a Region's problem: the line it names


class Cut(NamedTuple):
    """A piece a big text may be parsed in (chunked.py): lines [first, stop), parsed after the `context` rows and
    before the `closing` rows, in text order, that it needs to read as it does in the whole text (a class's header;
    the lines that open and close the MLIR ops around it)."""

    first: int
    stop: int
    context: Sequence[int] = range(0)
    closing: Sequence[int] = range(0)


@dataclass(frozen=True)
class Structure:
    regions: tuple[Region, ...]  # file order, non-overlapping
    trusted: bool = True
    reason: str | None = None  # why the structure cannot be trusted


def source(lines: list[str], deep: Collection[int] | None = None) -> tuple[bytes, list[int]]:
    """The bytes tree-sitter sees, each line ending in \\n so its rows are exactly our line indices,
    and where each line starts in them. Every parse of a snapshot goes through here.

    NUL becomes U+0001, byte for byte: tree-sitter's lexers read NUL as the end of the input, so one
    NUL in a comment would turn the rest of the file into errors; U+0001 is just an odd character.
    A line nesting brackets deeper than MAX_NESTING is seen only to that depth (`shallow`). `deep`: the
    rows that may (may_nest_deep), when the caller knows them; else every line is looked at.
    """
    if deep is None:
        lines = [shallow(line) if may_nest_deep(line) else line for line in lines]
    elif deep:
        lines = list(lines)
        for row in deep:
            lines[row] = shallow(lines[row])
    text = "\n".join(lines) + "\n" if lines else ""
    if text.isascii():  # the common case: one encode, lengths in characters are lengths in bytes
        return text.encode("ascii").replace(b"\0", b"\x01"), [0, *accumulate(map((1).__add__, map(len, lines)))]
    encoded = [(line + "\n").encode("utf-8", errors="surrogatepass").replace(b"\0", b"\x01") for line in lines]
    return b"".join(encoded), [0, *accumulate(map(len, encoded))]


# tree-sitter-mlir reads nested array attributes and parenthesised types in time quadratic in their depth
# (16,000 levels in one attribute: over 30 s). Past this depth on one line the parser sees blanks instead.
MAX_NESTING = 256
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")


def shallow(line: str) -> str:
    """The line with what lies inside brackets nested deeper than MAX_NESTING blanked, each character
    by as many spaces as its UTF-8 bytes (the parser's byte columns stay the text's). Brackets are counted
    as characters, strings or not: the bound needs no grammar, and only lines this deep ever change."""
    depth, parts, at = 0, [], 0
    for column, char in enumerate(line):
        if char in _OPEN:
            depth += 1
            if depth == MAX_NESTING + 1:
                parts.append(line[at : column + 1])
                at = column + 1
        elif char in _CLOSE and depth:
            depth -= 1
            if depth == MAX_NESTING:
                parts.append(_blank(line[at:column]))
                at = column
    parts.append(_blank(line[at:]) if depth > MAX_NESTING else line[at:])
    return "".join(parts)


def may_nest_deep(line: str) -> bool:
    """Cheap and exact in one direction: a line with no more opening brackets than MAX_NESTING is not too deep."""
    return len(line) > MAX_NESTING and line.count("(") + line.count("[") + line.count("{") > MAX_NESTING


def _blank(text: str) -> str:
    return " " * len(text.encode("utf-8", errors="surrogatepass"))


def too_deep(structure: Structure, lines: list[str], deep: Collection[int] | None = None) -> Structure:
    """The structure with each region holding a line that nests brackets past MAX_NESTING marked: it is
    read only to that depth (not highlighted past it); the first such line names it. `deep`: the rows that
    may (may_nest_deep), when the caller knows them; else every line is looked at."""
    rows = range(len(lines)) if deep is None else sorted(deep)
    deep = [row for row in rows if may_nest_deep(lines[row]) and shallow(lines[row]) != lines[row]]
    if not deep:
        return structure
    regions = []
    for region in structure.regions:
        at = bisect_left(deep, region.start)
        row = deep[at] if at < len(deep) and deep[at] < region.end else None
        if row is not None and region.error is None:
            note = f"line {LINE} nests brackets deeper than {MAX_NESTING}: read only to that depth"
            region = replace(region, problem=note, problem_row=row)
        regions.append(region)
    return replace(structure, regions=tuple(regions))


def parse(lines: list[str], language) -> Tree:
    """A fresh parse of the lines with the language's grammar (a languages.Language record)."""
    return Parser(language.grammar).parse(source(lines)[0])


def keyed(found: list[tuple[int, int, str, str, int]]) -> list[Region]:
    """Regions from (start, end, name, kind, name line), in file order; a repeated name gets "#2", "#3", ..."""
    found = sorted(found)
    return [
        Region(key, kind, start, end, def_row)
        for (start, end, _, kind, def_row), key in zip(found, numbered(name for _, _, name, _, _ in found))
    ]


def numbered(names: Iterable[str]) -> list[str]:
    """The names as keys, in order: a name's second occurrence is "name#2", its third "name#3", ... (name_of
    gives the name back)."""
    seen: dict[str, int] = {}
    keys = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        keys.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return keys


def name_of(key: str) -> str:
    """numbered()'s inverse: the name a key numbers ("f#2" -> "f"). Only for names that cannot hold "#": Python
    identifiers (the languages whose texts are cut into pieces, chunked.py) and pass names."""
    return key.partition("#")[0]


def end_line(node: Node) -> int:
    """One past the node's last line (a node that ends at column 0 ends on the line before)."""
    row, column = node.end_point
    return row + 1 if column > 0 or row == node.start_point.row else row


def indent_of(line: str) -> int:
    """Columns of leading blanks and tabs."""
    return len(line) - len(line.lstrip(" \t"))


def text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace") if node.text is not None else ""


def errors(root: Node) -> list[tuple[int, int, int]]:
    """(first, last, shown) lines of every outermost ERROR or MISSING node.

    `shown` is where the user should look: an ERROR node often starts long before the mistake (an
    unclosed decorator turns the whole file into one ERROR), so it is the first line of the innermost
    error inside it. Only subtrees that contain an error are visited.
    """
    found: list[tuple[int, int, int]] = []
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            first = node.start_point.row
            found.append((first, max(first, end_line(node) - 1), _innermost_error_row(node)))
            continue
        stack.extend(child for child in node.children if child.has_error)
    return sorted(found)


def _innermost_error_row(node: Node) -> int:
    while True:
        inner = next((c for c in node.children if c.is_error or c.is_missing or c.has_error), None)
        if inner is None:
            return node.start_point.row
        node = inner
