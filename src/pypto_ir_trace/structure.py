"""Structure: the functions and methods of a snapshot, with line spans and how far they can be trusted.

tree-sitter always returns a tree, so "could not be parsed" is defined here:
- an error inside one function's body marks that function (it still diffs on its own);
- an error outside every function, or one that hides where a function ends (a line inside the
  function's span that is indented no deeper than its `def`), means definitions may have been dropped
  or merged: the snapshot is untrusted and its passes fall back to the whole-file diff, with the reason.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from itertools import accumulate

from tree_sitter import Node, QueryCursor, Tree

from . import grammar


@dataclass(frozen=True)
class Region:
    key: str  # qualified name: "Program.main", "helper"; a repeated name gets "#2", "#3", ...
    kind: str  # "function" or "method"
    start: int  # first line, 0-based, decorators included
    end: int  # one past the last line
    def_line: int  # the `def` line, below any decorators
    error: str | None = None  # set when a syntax error lies inside the region


@dataclass(frozen=True)
class Structure:
    regions: tuple[Region, ...]  # file order, non-overlapping
    trusted: bool = True
    reason: str | None = None  # why the structure cannot be trusted


def source(lines: list[str]) -> tuple[bytes, list[int]]:
    """The bytes tree-sitter sees, each line ending in \\n so its rows are exactly our line indices,
    and where each line starts in them. Every parse of a snapshot goes through here.

    NUL becomes U+0001, byte for byte: tree-sitter's lexers read NUL as the end of the input, so one
    NUL in a comment would turn the rest of the file into errors; U+0001 is just an odd character.
    """
    text = "".join(line + "\n" for line in lines)
    if text.isascii():  # the common case: one encode, lengths in characters are lengths in bytes
        return text.encode("ascii").replace(b"\0", b"\x01"), [0, *accumulate(len(line) + 1 for line in lines)]
    encoded = [(line + "\n").encode("utf-8", errors="surrogatepass").replace(b"\0", b"\x01") for line in lines]
    return b"".join(encoded), [0, *accumulate(map(len, encoded))]


def parse(lines: list[str]) -> Tree:
    return grammar.parser().parse(source(lines)[0])


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
    regions, members = _find_regions(tree.root_node)
    previous_end = 0
    for region in regions:
        if region.start < previous_end:
            return _untrusted(regions, f"definitions overlap at line {region.start + 1}")
        previous_end = region.end
    starts = [r.start for r in regions]
    marked: dict[str, str] = {}
    for first, last, shown in _errors(tree.root_node):
        at = bisect_right(starts, first) - 1  # regions do not overlap: only this one can hold the error
        owner = regions[at] if at >= 0 and last < regions[at].end else None
        if owner is None:
            return _untrusted(regions, f"syntax error at line {shown + 1} outside any function")
        if first < owner.def_line:
            return _untrusted(
                regions, f"syntax error at line {shown + 1} before the def of {owner.key}: where it starts is uncertain"
            )
        marked.setdefault(owner.key, f"syntax error at line {shown + 1}")
    misaligned = _misaligned_member(members, tree.root_node)
    if misaligned is not None:
        return _untrusted(regions, misaligned)
    checked = []
    for region in regions:
        error = marked.get(region.key)
        if error is not None:
            escaped = _first_dedented_line(region, lines, tree)
            if escaped is not None:
                return _untrusted(
                    regions, f"{error} hides where {region.key} ends (line {escaped + 1} is not inside it)"
                )
            region = replace(region, error=error)
        checked.append(region)
    return Structure(tuple(checked))


def _untrusted(regions: list[Region], reason: str) -> Structure:
    return Structure(tuple(regions), trusted=False, reason=reason)


def _end_line(node: Node) -> int:
    row, column = node.end_point
    return row + 1 if column > 0 or row == node.start_point.row else row


def _find_regions(root: Node) -> tuple[list[Region], list[Node]]:
    """The regions in file order, and the statements of the blocks they live in (comments left out)."""
    cursor = QueryCursor(grammar.query("regions"))
    cursor.set_max_start_depth(0)  # every pattern is rooted at the module: no need to walk the bodies
    found: list[tuple[int, int, str, str, int]] = []
    for _, captures in cursor.matches(root):
        if "method" in captures:
            node, kind = captures["method"][0], "method"
            name = f"{_text(captures['class.name'][0])}.{_text(captures['method.name'][0])}"
        elif "function" in captures:
            node, kind = captures["function"][0], "function"
            name = _text(captures["function.name"][0])
        else:
            continue  # a class: its header and class-level lines lie outside every region
        def_row = (captures.get("method.name") or captures["function.name"])[0].start_point.row
        found.append((node.start_point.row, _end_line(node), name, kind, def_row))
    found.sort()
    seen: dict[str, int] = {}
    regions = []
    for start, end, name, kind, def_row in found:
        seen[name] = seen.get(name, 0) + 1
        key = name if seen[name] == 1 else f"{name}#{seen[name]}"
        regions.append(Region(key, kind, start, end, def_row))
    return regions, _members(root)


def _members(root: Node) -> list[Node]:
    cursor = QueryCursor(grammar.query("members"))
    cursor.set_max_start_depth(0)
    members: dict[int, Node] = {}
    free: set[int] = set()
    for _, captures in cursor.matches(root):
        for node in captures.get("member", ()):
            members[node.id] = node
        for node in captures.get("member.free", ()):
            free.add(node.id)
    return sorted((n for i, n in members.items() if i not in free), key=lambda n: n.start_byte)


def _text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace") if node.text is not None else ""


def _errors(root: Node) -> list[tuple[int, int, int]]:
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
            found.append((first, max(first, _end_line(node) - 1), _innermost_error_row(node)))
            continue
        stack.extend(child for child in node.children if child.has_error)
    return sorted(found)


def _innermost_error_row(node: Node) -> int:
    while True:
        inner = next((c for c in node.children if c.is_error or c.is_missing or c.has_error), None)
        if inner is None:
            return node.start_point.row
        node = inner


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
    indent = _indent(lines[region.def_line])
    for row in range(region.def_line + 1, min(region.end, len(lines))):
        line = lines[row]
        if line.strip(" \t\f") and _indent(line) <= indent and not _is_free(tree, row, _indent(line)):
            return row
    return None


def _is_free(tree: Tree, row: int, column: int) -> bool:
    cursor = QueryCursor(grammar.query("layout"))
    cursor.set_point_range((row, 0), (row + 1, 0))
    for _, captures in cursor.matches(tree.root_node):
        for node in captures.get("free", ()):
            if node.has_error or node.is_missing:
                continue  # an unclosed string swallows code: its lines are no excuse
            if node.start_point <= (row, column) < node.end_point or node.start_point == (row, column):
                return True
    return False


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
