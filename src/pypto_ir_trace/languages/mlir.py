"""MLIR as a language: tree-sitter-mlir, the grammars/mlir/ queries, and when a snapshot's functions are trusted.

Regions are the functions the IR defines: func.func, llvm.func and the other dialects' function ops
(emitc.func, gpu.func, util.func, vm.func ...), each keyed by its symbol qualified by the named modules
around it (`kernel_a::@f`; in an unnamed module just `@f`), kind "function". A function inside another
function stays inside its parent's span. The generic form (`"func.func"() <{..., sym_name = "f"}> ({`) is keyed
as the custom form prints the symbol (`@f`).

tree-sitter always returns a tree, so "trusted" is defined here. Custom assembly (IREE's
`!stream.resource<external>{%size}`, `with(%a as %b: ...)`) gives ERROR nodes in many correct dumps;
they must not cost the user the function view, so only errors that make a function's name or extent
uncertain count:
1. An error that lies within one function (on its symbol line or in its body) marks that function
   (Region.error): it still diffs on its own, against its own earlier text.
2. An error outside every function (in a global, an executable's export, an alias) is tolerated:
   no function's name or extent depends on it, as rules 3 and 4 check.
3. Every token that names a function-like op (`func.func`, `util.func`, `"func.func"`, also where the parser put
   it into an ERROR node or read it as a bare word) must sit on the symbol line of a found function:
   otherwise a definition was lost or swallowed by its neighbour, and the snapshot is untrusted.
4. When the tree has errors, every function must have the printer's layout: the lines after its
   symbol line are indented deeper than it, except block labels (`^bb1:`, printed at the function's
   own indentation) and the last line, a `}` at the function's indentation. A function whose parse
   breaks that layout (an error made it stop early, or run past its `}` into the module's closers:
   tree-sitter-mlir on IREE's codegen functions) ends where the layout closes it, when the layout
   closes it before the next function; otherwise an error hides where it ends: untrusted. With every
   function laid out so and every function op on a symbol line (rule 3), an error that starts inside a
   function and ends outside it no longer hides a name or an extent: it marks that function, as rule 1.
An error-free tree is trusted as it is: the parse is the grammar's reading of the text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import replace

import tree_sitter_mlir
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from .. import grammar
from ..structure import LINE, Cut, Region, Structure, end_line, errors, indent_of, name_of, numbered, source, text

NAME = "mlir"
LANGUAGE = Language(tree_sitter_mlir.language())

# A value capture is the name plus what selects a result: `%0#1` uses result 1 of %0, `%0:2` defines
# two results. Only the name before these marks is renamed; the mark itself is part of the operation.
_RESULT_MARK = re.compile("[#:]")
# Inside a `// N preds: ^bb0, ^bb2` comment (captured as @value.comment) the labels are the names.
_COMMENT_LABEL = re.compile(r"\^[\w$.-]+")

# How deep in the tree a function or a named module is looked for. Nesting deeper is not split further:
# its lines stay in the function or module around it. Why: a query over a tree over about 60,000 levels
# deep (16,000 nested regions) takes time quadratic in the depth, 5 s a query at 20,000 regions; matches
# that must start within this depth stay linear. Real dumps hold their functions a few dozen levels deep.
MAX_FUNCTION_DEPTH = 1000


def query(name: str) -> Query:
    """grammars/mlir/<name>.scm, compiled once."""
    return grammar.query(LANGUAGE, NAME, name)


def analyze(tree: Tree, lines: list[str]) -> Structure:
    """The functions of a snapshot and the verdict; the module docstring gives the rules."""
    root = tree.root_node
    functions, containers, symbol_rows, op_rows = _find(root)
    regions = _regions(functions, containers)
    if not root.has_error:
        return Structure(tuple(regions))
    lost = sorted(op_rows - symbol_rows)
    if lost:
        return _untrusted(regions, f"line {lost[0] + 1} names a function op but no function was read there")
    laid_out = [_as_laid_out(region, lines) for region in regions]
    for k, (region, fixed) in enumerate(zip(regions, laid_out)):
        if fixed is None or (k + 1 < len(regions) and fixed.end > regions[k + 1].start):
            return _untrusted(
                regions,
                f"a syntax error hides where {region.key} ends (the printer's layout does not close it before "
                "the next function)",
            )
    regions = [region for region in laid_out if region is not None]
    starts = [r.start for r in regions]
    marked: dict[str, int] = {}  # a function's key -> the line of the first syntax error inside it
    for first, _last, shown in errors(root):
        at = bisect_right(starts, first) - 1  # regions do not overlap: only this one can hold the error
        owner = regions[at] if at >= 0 and first < regions[at].end else None
        if owner is None:
            continue  # rule 2: outside every function
        marked.setdefault(owner.key, shown)
    return Structure(
        tuple(
            replace(r, problem=f"syntax error at line {LINE}", problem_row=marked[r.key]) if r.key in marked else r
            for r in regions
        )
    )


def function_span(tree: Tree, def_line: int) -> tuple[int, int] | None:
    """(first line, one past the last) of the outermost function named on `def_line`, or None. Only the
    query matches that span that line are looked at: a function's extent is checked without a search of
    the whole tree (incremental.py re-uses a structure where only function bodies changed)."""
    cursor = QueryCursor(query("regions"))
    cursor.set_max_start_depth(MAX_FUNCTION_DEPTH)
    cursor.set_point_range((def_line, 0), (def_line + 1, 0))
    spans = [
        (captures["function"][0].start_point.row, end_line(captures["function"][0]))
        for _, captures in cursor.matches(tree.root_node)
        if "function" in captures and _kept(captures) and captures["function.name"][0].start_point.row == def_line
    ]
    return min(spans, key=lambda span: (span[0], -span[1]), default=None)


def op_regions(tree: Tree, lines: list[str]) -> list[Region]:
    """The named modules (kind "module", key `outer::kernel_a`) and the functions, in file order.

    Discovery uses it to cut one op out of an enclosing dump; unlike analyze, it passes no verdict. A parse that
    lost a function (rule 3: a function op where no function was read) is read again an op at a time, as a text
    with errors is for the report (chunked.py): tree-sitter-mlir's recovery from one error in the generic form
    (`!llvm.vec<2 x ptr>`) swallows every op after it.
    """
    functions, containers, symbol_rows, op_rows = _find(tree.root_node)
    if op_rows <= symbol_rows:
        return _op_regions(functions, containers)
    found: dict[tuple[str, int], Region] = {}
    parser = Parser(LANGUAGE)
    for cut in cuts(lines, PIECE_LINES):
        rows = [*cut.context, *range(cut.first, cut.stop), *cut.closing]
        piece = parser.parse(source([lines[row] for row in rows])[0])
        for region in _op_regions(*_find(piece.root_node)[:2], rows):
            found.setdefault((region.kind, region.start), region)  # a module opened in the context: once
    ordered = sorted(found.values(), key=lambda r: (r.start, -r.end))
    return [replace(r, key=key) for r, key in zip(ordered, numbered(name_of(r.key) for r in ordered))]


def _op_regions(
    functions: list[tuple[Node, Node]], containers: list[tuple[Node, str]], rows: list[int] | None = None
) -> list[Region]:
    """op_regions of the ops found in a text; `rows`: the dump's row of each of the text's rows (a piece's)."""
    modules = [
        Region(key, "module", node.start_point.row, end_line(node), node.start_point.row)
        for (node, _), key in zip(containers, _keys(containers, containers))
    ]
    regions = sorted([*modules, *_regions(functions, containers)], key=lambda r: (r.start, -r.end))
    if rows is None:
        return regions
    return [replace(r, start=rows[r.start], end=rows[r.end - 1] + 1, def_line=rows[r.def_line]) for r in regions]


def names_in(
    captures: dict, lines: list[str], offsets: list[int], first: int, stop: int
) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """(row, spans) for each line of rows [first, stop) that has names: the (start, end) character spans of
    its SSA value and block label names, from a walk's captures of values.scm (highlight.walk: a text is
    asked about its few new lines).

    Result marks (`#1`, `:2`) are left out of the span. A span is only reported where the grammar reads
    a name: `%0` inside a string attribute is text, not a name.
    """
    spans: dict[int, list[tuple[int, int]]] = {}
    for capture in ("value", "value.comment"):
        for node in captures.get(capture, ()):
            begin, finish = node.start_byte, node.end_byte
            row = bisect_right(offsets, begin) - 1  # cheaper than start_point
            if not first <= row < stop or finish >= offsets[row + 1] or node.has_error:
                continue  # another chunk's, on two lines, or not read as a name
            line, column = lines[row], begin - offsets[row]
            if line.isascii():  # the parsed bytes are the line's (a name holds no NUL and is never blanked)
                name, start = line[column : column + finish - begin], column
            else:
                name, start = text(node), _char_column(line, column)
            if capture == "value.comment":
                found = [(start + m.start(), start + m.end()) for m in _COMMENT_LABEL.finditer(name)]
                if found:
                    spans.setdefault(row, []).extend(found)
                continue
            mark = _RESULT_MARK.search(name, 1)
            spans.setdefault(row, []).append((start, start + (mark.start() if mark else len(name))))
    for row in sorted(spans):
        yield row, sorted(spans[row])


def _char_column(line: str, byte_column: int) -> int:
    if line.isascii():
        return byte_column
    return len(line.encode("utf-8", "surrogatepass")[:byte_column].decode("utf-8", "replace"))


def _untrusted(regions: list[Region], reason: str) -> Structure:
    return Structure(tuple(regions), trusted=False, reason=reason)


def _find(root: Node) -> tuple[list[tuple[Node, Node]], list[tuple[Node, str]], set[int], set[int]]:
    """Outermost (function, symbol) node pairs, (container, name) pairs, the rows of every function's
    symbol (nested ones too), and the rows of every function-op token."""
    functions: dict[int, tuple[Node, Node]] = {}
    containers: dict[int, tuple[Node, str]] = {}
    op_rows: set[int] = set()
    cursor = QueryCursor(query("regions"))
    cursor.set_max_start_depth(MAX_FUNCTION_DEPTH)
    for captures in _matches(cursor, root):
        if "function" in captures:
            node = captures["function"][0]
            functions.setdefault(node.id, (node, captures["function.name"][0]))
        elif "container" in captures:
            node = captures["container"][0]
            containers.setdefault(node.id, (node, _symbol(captures["container.name"][0]).removeprefix("@")))
        for token in captures.get("function.op", ()):
            op_rows.add(token.start_point.row)
    ordered = sorted(functions.values(), key=lambda pair: pair[0].start_byte)
    outermost: list[tuple[Node, Node]] = []
    for node, symbol in ordered:
        if outermost and node.start_byte < outermost[-1][0].end_byte:
            continue  # a function inside a function stays in its parent's span
        outermost.append((node, symbol))
    symbol_rows = {symbol.start_point.row for _, symbol in ordered}
    return outermost, sorted(containers.values(), key=lambda pair: pair[0].start_byte), symbol_rows, op_rows


# Every pattern of regions.scm holds a token spelled with one of these (`func.func`, `util.func`, `module`,
# `gpu.module`, `flow.executable`): a match's nodes span a line that has one.
_OP_WORDS = (b".func", b"module", b".executable")


def _matches(cursor: QueryCursor, root: Node):
    """The captures of the query's matches (a match may come more than once). A clean tree is searched only
    on the lines that spell a function or module op: a match starts on a node that spans such a line, and
    tree-sitter walks no node outside the byte range but those that finish a match begun in it. Function
    bodies, most of the tree, are never visited (7 ms -> 0.3 ms on a module of 60 functions). A tree with
    errors is searched whole: recovery may build an op around a missing keyword, on a line that spells none."""
    source = root.text
    if root.has_error or source is None:
        yield from (captures for _, captures in cursor.matches(root) if _kept(captures))
        return
    for start, stop in _op_lines(source):
        cursor.set_byte_range(root.start_byte + start, root.start_byte + stop)
        yield from (captures for _, captures in cursor.matches(root) if _kept(captures))


def _kept(captures: dict) -> bool:
    """A match of regions.scm as it means it: a generic op's symbol follows the op's name, or one bare word after
    it (`util.func public @f`)."""
    if "_op" not in captures:
        return True
    symbol = (captures.get("function.name") or captures["container.name"])[0]
    before = symbol.prev_named_sibling
    if before is not None and before.type == "bare_id":
        before = before.prev_named_sibling
    return before == captures["_op"][0]


def _op_lines(source: bytes) -> list[tuple[int, int]]:
    """The byte ranges of the lines that spell a function or module op, adjacent lines in one range."""
    lines = set()
    for word in _OP_WORDS:  # bytes.find runs at memchr speed; a regex alternation tries every position
        at = source.find(word)
        while at >= 0:
            start = source.rfind(b"\n", 0, at) + 1
            stop = source.find(b"\n", at) + 1 or len(source)
            lines.add((start, stop))
            at = source.find(word, stop)
    ranges: list[tuple[int, int]] = []
    for start, stop in sorted(lines):
        if ranges and start <= ranges[-1][1]:
            start = ranges.pop()[0]
        ranges.append((start, stop))
    return ranges


def _regions(functions: list[tuple[Node, Node]], containers: list[tuple[Node, str]]) -> list[Region]:
    return [
        Region(key, "function", node.start_point.row, end_line(node), symbol.start_point.row)
        for (node, symbol), key in zip(functions, _keys([(n, _symbol(sym)) for n, sym in functions], containers))
    ]


_BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")  # the LangRef's bare-id: a symbol printed without quotes


def _symbol(node: Node) -> str:
    """A function's or module's symbol as the custom form prints it (`@f`, `@"a b"`): the node's text, or for the
    generic form's `sym_name = "f"` its string, unquoted where the custom form would not quote it."""
    found = text(node)
    if node.type != "string_literal":
        return found
    return f"@{found[1:-1]}" if _BARE_ID.fullmatch(found, 1, len(found) - 1) else f"@{found}"


def _keys(ops: list[tuple[Node, str]], containers: list[tuple[Node, str]]) -> list[str]:
    """Each op's name qualified by the named modules around it; a repeated name gets "#2", "#3", ..."""
    return numbered("::".join([*_scope(node, containers), own]) for node, own in ops)


def _scope(node: Node, containers: list[tuple[Node, str]]) -> list[str]:
    """The names of the named modules around node, outermost first."""
    return [
        name
        for box, name in containers
        if box.start_byte <= node.start_byte and node.end_byte <= box.end_byte and box.id != node.id
    ]


def _as_laid_out(region: Region, lines: list[str]) -> Region | None:
    """The function as the printer's layout has it (rule 4): as parsed when the layout closes it there, else
    ending where the layout closes it (marked); None when the layout does not close it."""
    if region.end - 1 <= region.def_line:
        return region  # a declaration on one line
    stop = laid_out_end(lines, region.def_line)
    if stop is None:
        return None
    if stop == region.end:
        return region
    return replace(
        region,
        end=stop,
        problem=f"a syntax error: where it ends is read from the layout (line {LINE})",
        problem_row=stop - 1,
    )


# A text with syntax errors is parsed an op at a time (chunked.py): IREE's dumps have errors in most texts (custom
# assembly), so a whole parse could not start from the tree before it (incremental.py) and each was parsed whole;
# in pieces, a pass parses only the ops it changed, and an error cannot leave the op it is in. Every such text is
# cut (PIECES_FROM lines on); an op holding only ops of its own is looked into from PIECE_LINES lines on.
PIECES_FROM = 0
PIECE_LINES = 64
# the top-level op: `module @example attributes {...} {`; in the generic form `"builtin.module"() ({`
_MODULE_OPENERS = ("module ", "module{", "builtin.module ", '"builtin.module"(')
_BEFORE_TOP_OP = ("#", "!", "//")  # an attribute or type alias definition, or a comment (a tree file's header)


def _top_op_row(lines: list[str]) -> int | None:
    """The row of a text's first op: its first line that is not blank, no alias definition and no comment; None:
    none."""
    return next((row for row, line in enumerate(lines) if line.strip() and not line.startswith(_BEFORE_TOP_OP)), None)


def cuts(lines: list[str], size: int) -> list[Cut]:
    """Pieces a text may be parsed in (chunked.py), by the printer's layout: a piece starts at each op of a symbol
    table that opens a region, and at the op after one (ops of one line stay together: a module's globals); the
    tables are the top-level module and the ops in it of more than `size` lines that hold only ops of their own (an
    executable, its variant, the module inside it). Each piece is parsed after the lines that open the ops around
    its start and before those that close the ops still open at its end, so it reads as in the whole text (its
    functions keyed by the modules around them). A text that is not one module in the printer's layout (a local
    dump shown alone) is one piece."""
    top = _top_op_row(lines)
    stop = laid_out_end(lines, top) if top is not None and lines[top].startswith(_MODULE_OPENERS) else None
    if top is None or stop is None or any(line.strip() for line in lines[stop:]):
        return [Cut(0, len(lines))]
    pieces: list[Cut] = []
    first = 0  # the piece's first line
    opened: tuple[tuple[int, int], ...] = ()  # the tables open where it starts: (opening, closing) rows
    after_region = False  # the op before opened a region
    for row, tables in _op_starts(lines, ((top, stop - 1),), size):
        opens = lines[row].rstrip().endswith("{")
        if row > first and (opens or after_region):
            pieces.append(Cut(first, row, [at for at, _ in opened], sorted(close for _, close in tables)))
            first, opened = row, tables
        after_region = opens
    pieces.append(Cut(first, len(lines), [at for at, _ in opened]))
    return pieces


def _op_starts(
    lines: list[str], tables: tuple[tuple[int, int], ...], size: int
) -> Iterator[tuple[int, tuple[tuple[int, int], ...]]]:
    """(row, the tables open there) of each op of the innermost table, in text order; an op that is a table of more
    than `size` lines is looked into (after its own row)."""
    opening, closing = tables[-1]
    row = opening + 1
    while row < closing:
        line = lines[row]
        if not line.strip():
            row += 1
            continue
        end = laid_out_end(lines, row) if line.rstrip().endswith("{") else row + 1
        if end is None:  # an op the layout does not close: no cut past it in this table
            return
        yield row, tables
        if end - row > size and _symbol_table(lines, row, end):
            yield from _op_starts(lines, (*tables, (row, end - 1)), size)
        row = end


def _symbol_table(lines: list[str], opening: int, stop: int) -> bool:
    """Whether the op of rows [opening, stop) holds only ops of its own in the printer's layout (a module, an
    executable): each line at its body's indent opens a region or names a symbol, and none is a value's definition
    or a block's label (a function's body). A wrong guess costs time only: a piece that cuts a function is refused
    (chunked.py), and its text is parsed whole."""
    body = [line for line in lines[opening + 1 : stop - 1] if line.strip()]
    if not body:
        return False
    indent = indent_of(body[0])
    own = [line.lstrip(" ") for line in body if indent_of(line) == indent and not line.lstrip(" ").startswith("}")]
    return indent > indent_of(lines[opening]) and all(
        not op.startswith(("%", "^")) and (op.rstrip().endswith("{") or "@" in op) for op in own
    )


def laid_out_end(lines: list[str], row: int) -> int | None:
    """One past the last line of the op whose region opens at the end of `row`, in the printer's layout: the
    first line at the op's own indent that closes it (`}`, `} -> type`; not `} else {`; its block labels are at
    that indent too). None when the line opens no region, or the text ends or leaves the op's indent first."""
    line = lines[row]
    if not line.rstrip().endswith("{"):
        return None
    indent = indent_of(line)
    deeper = " " * (indent + 1)  # a line indented past the op's own: inside it (the common case, read at C speed)
    for end in range(row + 1, len(lines)):
        line = lines[end]
        if line.startswith(deeper):
            continue
        own = indent_of(line)
        if not line.strip() or own > indent or (own == indent and line.lstrip().startswith("^")):
            continue
        if own < indent or not line.lstrip().startswith("}"):
            return None
        if not line.rstrip().endswith("{"):
            return end + 1
    return None
