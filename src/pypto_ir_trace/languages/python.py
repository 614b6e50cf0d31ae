"""Python-like IR (PyPTO's printed programs): regions are top-level functions and class methods.

tree-sitter always returns a tree, so "could not be parsed" is defined here:
- an error inside one function's body marks that function (it still diffs on its own);
- an error outside every function, or one that hides where a function ends (a line inside the
  function's span that is indented no deeper than its `def`), means definitions may have been dropped
  or merged: the snapshot is untrusted and its passes fall back to the whole-file diff, with the reason.
"""

from __future__ import annotations

import zlib
from bisect import bisect_right
from dataclasses import replace
from functools import partial

import tree_sitter_python
from tree_sitter import Language, Node, Parser, QueryCursor, Tree

from .. import grammar
from ..structure import LINE, Cut, Region, Structure, end_line, errors, indent_of, keyed, source, text

GRAMMAR = Language(tree_sitter_python.language())
_query = partial(grammar.query, GRAMMAR, "python")


def analyze(tree: Tree, lines: list[str]) -> Structure:
    """The regions of a snapshot and the verdict; each rule below names what a user would see go wrong.

    1. Blocks line up: the statements of the module, and of each class body, start at one column.
       tree-sitter accepts a stray dedent or indent silently (a debug line printed at column 0 ends the
       class, and the methods after it come back as top-level functions); Python would not.
    2. Every syntax error lies inside one region, below its decorators: an error between regions,
       in a class header or in a decorator can drop or merge definitions.
    3. An error must not hide where its region ends: no line after the `def`, inside the region's span,
       may be indented as shallow as the `def` (an unclosed bracket swallows the next definition).
    Regions whose errors pass 2 and 3 are kept and marked; everything else makes the snapshot untrusted.
    """
    regions = _find_regions(tree.root_node)
    previous_end = 0
    for region in regions:
        if region.start < previous_end:
            return _untrusted(regions, f"definitions overlap at line {region.start + 1}")
        previous_end = region.end
    starts = [r.start for r in regions]
    marked: dict[str, int] = {}  # a region's key -> the line of the first syntax error inside it
    for first, last, shown in errors(tree.root_node):
        at = bisect_right(starts, first) - 1  # regions do not overlap: only this one can hold the error
        owner = regions[at] if at >= 0 and last < regions[at].end else None
        if owner is None:
            return _untrusted(regions, f"syntax error at line {shown + 1} outside any function")
        if first < owner.def_line:
            return _untrusted(
                regions, f"syntax error at line {shown + 1} before the def of {owner.key}: where it starts is uncertain"
            )
        marked.setdefault(owner.key, shown)
    misaligned = _misaligned_member(_members(tree.root_node), tree.root_node)
    if misaligned is not None:
        return _untrusted(regions, misaligned)
    checked = []
    for region in regions:
        row = marked.get(region.key)
        if row is not None:
            region = replace(region, problem=f"syntax error at line {LINE}", problem_row=row)
            escaped = _first_dedented_line(region, lines, tree)
            if escaped is not None:
                return _untrusted(
                    regions, f"{region.error} hides where {region.key} ends (line {escaped + 1} is not inside it)"
                )
        checked.append(region)
    return Structure(tuple(checked))


def calm_boundary(line: str, neighbour: str) -> bool:
    """An incremental edit may end between two non-blank lines of one indentation that are not comments:
    tree-sitter-python re-uses the rest of the block then. At an indent or dedent it re-parses the block (0.8 s
    instead of 0.002 s for a one-line change in a 20,000-line snapshot); beside a comment line, whose
    indentation its scanner reads past, it re-uses less (a pass renaming values in all 200 functions of one:
    1.26 -> 0.53 s)."""
    return bool(
        line.strip()
        and neighbour.strip()
        and indent_of(line) == indent_of(neighbour)
        and not line.lstrip().startswith("#")
        and not neighbour.lstrip().startswith("#")
    )


def cuts(lines: list[str], size: int) -> list[Cut]:
    """Pieces of at least `size` lines that a big snapshot may be parsed in (chunked.py): (first, stop,
    context rows), covering every line in order.

    A piece starts where the indentation drops back to the module's column, or to the column of the
    body of a top-level class; then its context is the class's header (the run of column-0 lines above
    its body: decorators, `class Name:`), parsed with it so its members stay that class's methods.
    A comment's column says nothing: code indented under it still belongs to the block above.
    Whether the cut is outside every bracket and string is for the parse to say (chunked.py checks each
    piece). A cut is taken where the text says so (a hash of its next two lines), not at a fixed count,
    so an edit moves only the cuts near it.
    """
    pieces: list[Cut] = []
    first, context = 0, range(0)
    header, body = range(0), -1  # the current top-level statement's header rows and body column
    run = -1  # first row of the current run of column-0 lines
    previous = 0  # indentation of the last non-blank line
    for row, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue  # Python's tokenizer: blank and comment-only lines neither indent nor dedent
        indent = indent_of(line)
        if indent == 0:
            at = range(0) if previous > 0 else None
            run = row if run < 0 else run
        else:
            if run >= 0:  # the first indented line under a run of column-0 lines: a body starts
                header, run = range(run, row), -1
                body = indent if _opens_class(lines[header.start : header.stop]) else -1
            at = header if indent == body and previous > body else None
        previous = indent
        if at is not None and row - first >= size and _cut_here(lines, row, row - first >= 4 * size):
            pieces.append(Cut(first, row, context))
            first, context = row, at
    pieces.append(Cut(first, len(lines), context))
    return pieces


def _cut_here(lines: list[str], row: int, overdue: bool) -> bool:
    return overdue or zlib.crc32("\n".join(lines[row : row + 2]).encode("utf-8", "surrogatepass")) % 4 == 0


def _opens_class(header: list[str]) -> bool:
    """Whether the last statement of these column-0 lines is a class (tree-sitter-python reads a header
    without its body as a class with an empty block): one small parse per top-level statement."""
    root = Parser(GRAMMAR).parse(source(header)[0]).root_node
    cursor = QueryCursor(_query("regions"))
    cursor.set_max_start_depth(0)
    return bool(root.children) and root.children[-1] in cursor.captures(root).get("class", [])


def _untrusted(regions: list[Region], reason: str) -> Structure:
    return Structure(tuple(regions), trusted=False, reason=reason)


def _find_regions(root: Node) -> list[Region]:
    cursor = QueryCursor(_query("regions"))
    cursor.set_max_start_depth(0)  # every pattern is rooted at the module: no need to walk the bodies
    found: list[tuple[int, int, str, str, int]] = []
    for _, captures in cursor.matches(root):
        if "method" in captures:
            node, kind = captures["method"][0], "method"
            name = f"{text(captures['class.name'][0])}.{text(captures['method.name'][0])}"
        elif "function" in captures:
            node, kind = captures["function"][0], "function"
            name = text(captures["function.name"][0])
        else:
            continue  # a class: its header and class-level lines lie outside every region
        def_row = (captures.get("method.name") or captures["function.name"])[0].start_point.row
        found.append((node.start_point.row, end_line(node), name, kind, def_row))
    return keyed(found)


def _members(root: Node) -> list[Node]:
    """The statements of the blocks regions live in (module, top-level class bodies), comments left out."""
    cursor = QueryCursor(_query("members"))
    cursor.set_max_start_depth(0)
    members: dict[int, Node] = {}
    free: set[int] = set()
    for _, captures in cursor.matches(root):
        for node in captures.get("member", ()):
            members[node.id] = node
        for node in captures.get("member.free", ()):
            free.add(node.id)
    return sorted((n for i, n in members.items() if i not in free), key=lambda n: n.start_byte)


def _misaligned_member(members: list[Node], root: Node) -> str | None:
    """The first statement of the module or of a class body that does not start at its block's column."""
    column: dict[int, tuple[int, int]] = {}  # block id -> (column, first line)
    for node in members:
        block = node.parent
        if block is None:
            continue
        row, col = node.start_point
        expected = column.setdefault(block.id, (0 if block.id == root.id else col, row))
        if col != expected[0]:
            where = "the top level" if block.id == root.id else f"the class body that starts at line {expected[1] + 1}"
            return (
                f"line {row + 1} starts at column {col + 1}, not at column {expected[0] + 1} like the other "
                f"statements of {where}: the indentation hides where definitions begin and end"
            )
    return None


def _first_dedented_line(region: Region, lines: list[str], tree: Tree) -> int | None:
    """A non-blank line after the `def` that is indented no deeper than it cannot belong to the body.

    Lines that start inside a comment or a string keep their own indentation and are not counted.
    """
    indent = indent_of(lines[region.def_line])
    for row in range(region.def_line + 1, min(region.end, len(lines))):
        line = lines[row]
        if line.strip(" \t\f") and indent_of(line) <= indent and not _is_free(tree, row, indent_of(line)):
            return row
    return None


def _is_free(tree: Tree, row: int, column: int) -> bool:
    cursor = QueryCursor(_query("layout"))
    cursor.set_point_range((row, 0), (row + 1, 0))
    for _, captures in cursor.matches(tree.root_node):
        for node in captures.get("free", ()):
            if node.has_error or node.is_missing:
                continue  # an unclosed string swallows code: its lines are no excuse
            if node.start_point <= (row, column) < node.end_point or node.start_point == (row, column):
                return True
    return False
