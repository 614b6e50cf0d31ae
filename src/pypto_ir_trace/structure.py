"""Structure: the functions and methods of a snapshot, with line spans and how far they can be trusted.

tree-sitter always returns a tree, so "could not be parsed" is defined here:
- an error inside one function's body marks that function (it still diffs on its own);
- an error outside every function, or one that hides where a function ends (a line inside the
  function's span that is indented no deeper than its `def`), means definitions may have been dropped
  or merged: the snapshot is untrusted and its passes fall back to the whole-file diff, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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


def source_bytes(lines: list[str]) -> bytes:
    """The text tree-sitter sees: lines joined by \\n, so its rows are exactly our line indices."""
    return "\n".join(lines).encode("utf-8", errors="surrogatepass")


def parse(lines: list[str]) -> Tree:
    return grammar.parser().parse(source_bytes(lines))


class IncrementalParser:
    """Parses a sequence of texts, each re-using the tree of the one before it (Tree.edit).

    Adjacent snapshots differ in a few lines, so tree-sitter re-parses only around the edit.
    """

    def __init__(self) -> None:
        self._parser = grammar.parser()
        self._source = b""
        self._tree: Tree | None = None

    def parse(self, lines: list[str]) -> Tree:
        source = source_bytes(lines)
        old, tree = self._source, self._tree
        if tree is not None:
            start = _common_prefix(old, source)
            end = _common_suffix(old, source, start)
            tree.edit(
                start_byte=start,
                old_end_byte=len(old) - end,
                new_end_byte=len(source) - end,
                start_point=_point(old, start),
                old_end_point=_point(old, len(old) - end),
                new_end_point=_point(source, len(source) - end),
            )
        self._tree = self._parser.parse(source, tree) if tree is not None else self._parser.parse(source)
        self._source = source
        return self._tree


def _common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix, by bisection on slice comparisons (memcmp, not a Python loop)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, prefix: int) -> int:
    lo, hi = 0, min(len(a), len(b)) - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(source: bytes, offset: int) -> tuple[int, int]:
    return source.count(b"\n", 0, offset), offset - (source.rfind(b"\n", 0, offset) + 1)


def analyze(tree: Tree, lines: list[str]) -> Structure:
    regions = _find_regions(tree.root_node)
    errors = _error_rows(tree.root_node)
    marked: dict[str, str] = {}
    for first, last in errors:
        owner = next((r for r in regions if r.start <= first and last < r.end), None)
        if owner is None:
            return _untrusted(regions, f"syntax error at line {first + 1} outside any function")
        marked.setdefault(owner.key, f"syntax error at line {first + 1}")
    previous_end = 0
    for region in regions:
        if region.start < previous_end:
            return _untrusted(regions, f"definitions overlap at line {region.start + 1}")
        previous_end = region.end
    checked = []
    for region in regions:
        error = marked.get(region.key)
        if error is not None:
            escaped = _first_dedented_line(region, lines)
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


def _find_regions(root: Node) -> list[Region]:
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
    return regions


def _text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace") if node.text is not None else ""


def _error_rows(root: Node) -> list[tuple[int, int]]:
    """(first, last) line of every ERROR or MISSING node, visiting only subtrees that contain one."""
    rows: list[tuple[int, int]] = []
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            rows.append((node.start_point.row, max(node.start_point.row, _end_line(node) - 1)))
            continue
        stack.extend(child for child in node.children if child.has_error)
    return sorted(rows)


def _first_dedented_line(region: Region, lines: list[str]) -> int | None:
    """A non-blank line after the `def` that is indented no deeper than it cannot belong to the body."""
    indent = _indent(lines[region.def_line])
    for row in range(region.def_line + 1, min(region.end, len(lines))):
        line = lines[row]
        if line.strip() and _indent(line) <= indent:
            return row
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
