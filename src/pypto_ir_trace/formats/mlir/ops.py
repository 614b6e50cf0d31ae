"""Where an op stands in a dump's text: the ops the language finds (Language.op_regions) found by name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tree_sitter import Tree

from ... import structure
from ...dump import split_lines
from ...incremental import IncrementalParser
from ...languages import MLIR


@dataclass(frozen=True)
class Ops:
    """A dump's text split into lines, its op regions, and those regions by their own name: one enclosing
    dump is asked for the ops of many local dumps, so a lookup costs a dictionary access, not a scan."""

    text: str
    lines: list[str]
    regions: tuple
    by_name: dict[str, list]

    def named(self, name: str) -> list:
        """The regions whose key ends in `name` (the op's own name, whatever modules enclose it)."""
        return self.by_name.get(name, [])

    def locate(self, name: str, folder_path: str):
        """The one region named `name`; the folders break ties between modules."""
        found = self.named(name)
        if len(found) > 1:
            found = [r for r in found if all(f"_{m}" in folder_path for m in r.key.split("::")[:-1])]
        return found[0] if len(found) == 1 else None


@lru_cache(maxsize=8)  # the enclosing dump, and the local dumps asked about just now
def ops_of(text: str) -> Ops:
    lines = split_lines(text)[0]
    tree = _WHOLE.parse(lines) if len(lines) >= _WHOLE_FROM else structure.parse(lines, MLIR)
    regions = tuple(MLIR.op_regions(tree, lines))
    by_name: dict[str, list] = {}
    for region in regions:
        name = region.key.rsplit("::", 1)[-1]
        for spelling in {name, unquoted(name)}:
            by_name.setdefault(spelling, []).append(region)
    return Ops(text, lines, regions, by_name)


class _Texts:
    """The big texts ops_of is asked about, parsed each from the tree of the one before: they come in pipeline order
    (whole dumps, the program as it stands with the local dumps since put in), each much like the one before it;
    the local dumps asked about between them are small and parsed alone. (The sparsifier's local stream: 0.27 s of
    whole parses in its splice.)"""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """Lets the last tree and the lines seen go (the report is built without them)."""
        self.parser = IncrementalParser(MLIR)
        self._ids: dict[str, int] = {}

    def parse(self, lines: list[str]) -> Tree:
        return self.parser.parse(lines, [self._ids.setdefault(line, len(self._ids)) for line in lines])


_WHOLE_FROM = 200  # lines: a text this long is parsed from the big text before it
_WHOLE = _Texts()


@lru_cache(maxsize=2)  # the text local dumps are looked for in by layout, asked once per dump
def lines_of(text: str) -> list[str]:
    return split_lines(text)[0]


@lru_cache(maxsize=2)  # as lines_of: one pass over a text serves every local dump looked for in it
def openers_of(text: str) -> dict[str, list[tuple[int, str]]]:
    """symbol -> (row, signature) of each line that starts an op of that symbol, by the printer's layout (the op's
    signature ends with it: `func.func @f(...) {`, `hal.executable.variant public @x target(...) {`, a declaration
    `func.func private @g(i32)`; a call with no results too, `call @g(%0)`, which no dump prints alone)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for row, line in enumerate(lines_of(text)):
        if "@" in line:
            opened = signature(line.lstrip(" "))
            head, _, symbol = opened.rpartition(" ")
            if head and symbol.startswith("@"):
                found.setdefault(symbol, []).append((row, opened))
    return found


def forget() -> None:
    """Drops what the lookups keep: the texts, their lines, their trees and their op spans."""
    ops_of.cache_clear()
    spans_of.cache_clear()
    lines_of.cache_clear()
    openers_of.cache_clear()
    _WHOLE.forget()


def unquoted(name: str) -> str:
    """A symbol as a header line names it: the IR quotes one that is not a bare identifier
    (`@"_insert_dense_-9223"`), the header prints it raw (`@_insert_dense_-9223`)."""
    if name.startswith('@"') and name.endswith('"') and len(name) > 2:
        return "@" + name[2:-1]
    return name


def single_op(text: str) -> str | None:
    """The key of the one op (a function or a named module) a local dump holds after its header, or None.

    Read from the op's first line alone when the dump has the printer's layout (the op opens at column 0, every
    line of its body is indented but its block labels, and it ends with the `}` at column 0): a local-scope
    stream holds thousands of these, and parsing each whole costs as much as the rest of the report."""
    header_end = text.find("\n")
    outer = _outer_lines(text, header_end + 1) if header_end >= 0 else None
    if outer is None:
        return None
    (first, opener), (stop, last) = outer
    if opener[:1] in ("", " ", "\t", "#", "!", "}") or opener.startswith(("module {", "module attributes")):
        return None  # indented, an alias, or the unnamed top module: a whole dump
    one_line = stop == first
    if one_line or (last == "}" and opener.rstrip().endswith("{") and _indented_between(text, first, stop)):
        found = ops_of(opener + ("\n" if one_line else "\n}\n"))
        if len(found.regions) == 1 and found.regions[0].start == 0:
            return found.regions[0].key
        if not any(region.start == 0 for region in found.regions):
            return None  # an op the language names no region for (`util.initializer`): nor would the whole dump
    return _parsed_single_op(text)


def _parsed_single_op(text: str) -> str | None:
    found = ops_of(text)
    if not found.regions:
        return None
    outer = found.regions[0]  # sorted by start, the widest first
    outside = found.lines[1 : outer.start] + found.lines[outer.end :]
    return outer.key if not any(line.strip() for line in outside) else None


# An alias definition before a dump's top op (`#map = affine_map<...>`, `!t = ...`): not an op. (The language's
# module knows them too, for its cuts; a format reaches a language only through its Language record.)
_ALIAS_START = ("#", "!")
_TOP_OP = "module"  # the op at the top of the IR (builtin.module)


def of_top_kind(kind: str) -> bool:
    """Whether an op of this signature (`module`, `module @example`) is of the kind the top-level op is."""
    return kind.split(" ", 1)[0] == _TOP_OP


def opened_op(text: str, start: int) -> str | None:
    """The signature of the one op a dump holds from offset `start` on (`util.initializer`, `module`,
    `hal.executable.variant public @embedded_elf_x86_64`: its op name, and its keyword and symbol when it has them),
    or None when the dump is not one op in the printer's layout: past any alias definitions, the op opens at
    column 0 on a line that ends with `{`, every line after it is indented or a block label, and the last is the
    `}` at column 0."""
    outer = _outer_lines(text, start)
    while outer is not None and outer[0][1].startswith(_ALIAS_START):
        outer = _outer_lines(text, outer[0][0] + len(outer[0][1]))
    if outer is None or outer[0][0] == outer[1][0] or outer[1][1] != "}":
        return None
    (first, opener), (stop, _) = outer
    if not opener.rstrip().endswith("{") or opener[:1] in (" ", "\t", "}"):
        return None
    return signature(opener) if _indented_between(text, first, stop) else None


_NOT_SPACE = re.compile(r"\S")  # as str.strip() reads whitespace


def _outer_lines(text: str, start: int) -> tuple[tuple[int, str], tuple[int, str]] | None:
    """The first and the last line of the text from offset `start` on that are not blank, each as (the offset it
    starts at, the line); None when all are blank. Found by offsets: a local dump of a codegen function holds
    thousands of lines, which splitting would make into as many strings."""
    found = _NOT_SPACE.search(text, start)
    if found is None:
        return None
    end = len(text)
    while text[end - 1].isspace():
        end -= 1
    return _line_around(text, found.start(), start), _line_around(text, end - 1, start)


def _line_around(text: str, at: int, start: int) -> tuple[int, str]:
    """The line that holds offset `at` (not before `start`), and the offset it starts at."""
    first = max(text.rfind("\n", start, at) + 1, start)
    stop = text.find("\n", at)
    return first, text[first : stop if stop >= 0 else len(text)]


_UNINDENTED = re.compile(r"\n[^ \t^\n]")  # a line at column 0 that is not blank and no block label


def _indented_between(text: str, first: int, last: int) -> bool:
    """Whether every line strictly between the lines starting at offsets first and last is blank, indented or a
    block label (`^bb1:`): searched in the text at C speed, where a local stream's thousands of dumps are read."""
    return _UNINDENTED.search(text, text.find("\n", first), last) is None


def signature(opener: str) -> str:
    """An op's opening line as far as it tells the op: its name, then its symbol, possibly after one keyword."""
    words = opener.split()
    for count in (2, 3):
        if len(words) >= count and words[count - 1].startswith("@") and (count == 2 or words[1].isalpha()):
            symbol = words[count - 1]
            for stop in "(<{":  # a nested reference (`@a::@f`) is not the op's own symbol: kept whole
                symbol = symbol.split(stop, 1)[0]
            return " ".join([*words[: count - 1], symbol])
    return words[0].removeprefix("builtin.")  # a nested module prints its dialect, the top op does not


def end_of(lines: list[str], row: int) -> int | None:
    """One past the last line of the op whose region opens at the end of `row`, by the printer's layout (the
    language's); None when the layout does not close it."""
    assert MLIR.laid_out_end is not None
    return MLIR.laid_out_end(lines, row)


def _rows_starting(text: str, head: str) -> list[int]:
    """The rows of the lines that start, past their indent, with `head` or `builtin.head` (found by `str.find`: the
    program as it stands is searched once per dump that names only its op's kind)."""
    rows: list[int] = []
    row, counted, at = 0, 0, text.find(head)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        if text[start:at].lstrip(" ") in ("", "builtin."):
            row, counted = row + text.count("\n", counted, start), start
            rows.append(row)
        at = text.find(head, at + len(head))
    return rows


@lru_cache(maxsize=2)  # the program as it stands, asked about each op of a kind, and the text searched
def spans_of(text: str, wanted: str) -> tuple[tuple[int, int], ...]:
    """(first, stop) lines of each op of this signature in a text, in text order. In the printer's layout an op
    that opens a region ends with the first line at its own indent that closes it (`}`, `} -> type`; not
    `} else {`; its block labels are at that indent too), any other op is its line."""
    lines = lines_of(text)
    head = wanted.split(" ", 1)[0]
    heads = (head, "builtin." + head)
    found = []
    for row in _rows_starting(text, head):
        opener = lines[row].lstrip(" ")
        if opener.startswith(heads) and signature(opener) == wanted:
            stop = end_of(lines, row) if opener.rstrip().endswith("{") else row + 1
            if stop is not None:
                found.append((row, stop))
    return tuple(found)
