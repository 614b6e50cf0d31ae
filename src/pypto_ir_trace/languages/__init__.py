"""One record per language: its tree-sitter grammar, its queries in grammars/<name>/ and its trust rules; or, for
a language read line by line (LLVM), its line reader."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from tree_sitter import Language as TreeSitterLanguage
from tree_sitter import Tree

from ..structure import Cut, Region, Structure, parse
from . import digits, llvm, mlir, python


@dataclass(frozen=True)
class LineReader:
    """A language read without a tree: its structure from its lines, and each new line's facts from the line
    alone (a line of LLVM IR is one instruction)."""

    analyze: Callable[[list[str]], Structure]  # regions and how far they can be trusted
    tokens: Callable[[str], list[tuple[int, int, str]]]  # (start, end, highlight class) in characters, in order
    classes: Callable[[], tuple[str, ...]]  # every highlight class `tokens` gives
    # (line, its tokens) -> the spans of the names a pass may renumber
    names: Callable[[str, list[tuple[int, int, str]]], list[tuple[int, int]]]
    op_spans: Callable[[str], tuple[tuple[int, int], ...]]  # where the ops the line runs are
    # (line) -> its shape: lines of one shape have the same tokens, names and op spans, read once per shape
    shape: Callable[[str], Hashable]


@dataclass(frozen=True)
class Language:
    name: str  # the grammars/<name>/ folder
    grammar: TreeSitterLanguage | None  # None: read by `lines`
    analyze: Callable[[Tree, list[str]], Structure]  # regions and how far they can be trusted
    # May an incremental edit boundary sit between these two unchanged lines? (None: never widen)
    calm_boundary: Callable[[str, str], bool] | None = None
    # Per line, the (start, end) spans of the names a pass may renumber (SSA values, block labels);
    # None: the language has no such names, and "Ignore renumbering" does not apply
    # (a walk's captures of grammars/<name>/values.scm, lines, line offsets, first, stop) -> (row, the spans of
    # the names a renumbering changes) for the rows of [first, stop) that have any
    names_in: Callable[[dict, list[str], list[int], int, int], Iterable[tuple[int, list[tuple[int, int]]]]] | None = (
        None
    )
    # (lines, a size in lines) -> the pieces a big text may be parsed in; None: always parsed whole (chunked.py).
    # The size is the least lines a piece (Python), or of an op that is looked into (MLIR)
    cuts: Callable[[list[str], int], list[Cut]] | None = None
    # from how many lines a text is cut, and the size given to `cuts`; None: chunked.py's PIECES_FROM, PIECE_LINES
    pieces: tuple[int, int] | None = None
    # False: a big text is read in pieces (memory follows the piece), and a piece with syntax errors has it parsed
    # whole. True: a big text is read in pieces when it has syntax errors, which then cannot reach past the op they
    # are in (MLIR's: tree-sitter's recovery from custom assembly could swallow the next function), and the
    # analysis marks what they touch; a clean one is parsed whole, re-using the tree before it, and its pieces
    # would read as it does (chunked.py)
    pieces_for_errors: bool = False
    # (tree, the line naming a function) -> the (first, stop) lines of that function, None when no function is
    # named there; None: every snapshot's structure is found by analyze (incremental.py re-uses it otherwise)
    function_span: Callable[[Tree, int], tuple[int, int] | None] | None = None
    elides: bool = False  # grammars/<name>/elide.scm names sub-expressions the viewer may elide (highlight.py)
    ops: bool = False  # grammars/<name>/ops.scm names the program's ops (opcounts.py: a pass's op count deltas)
    # The language prints one op a line, the first name on it: a later name the grammar reads as an op is not one
    # (MLIR: `attributes {iree.abi.stub}` after a function's signature is read as a region of ops)
    one_op_a_line: bool = False
    lines: LineReader | None = None  # a language without a tree-sitter grammar
    # a region's key -> the name users read (a demangled symbol), None when the key is that name
    label: Callable[[str], str | None] | None = None
    # (tree) -> the ops a dump may print alone, nested ones too, in text order (MLIR's local scope: its named modules
    # and functions), found to cut one out of a whole dump and put it back (the splice); none by default
    op_regions: Callable[[Tree, list[str]], list[Region]] = lambda tree, lines: []
    # (lines, the line an op opens its region on) -> one past its last line by the printer's layout, None when the
    # layout does not close it; None: the language has no such layout
    laid_out_end: Callable[[list[str], int], int | None] | None = None
    # Its dumps may print a line again at another indent (MLIR's local scope prints an op at column 0, the module
    # prints it inside; a PyPTO pass may nest the program): such a line takes the facts of the line it was
    # (linetable.LineTable). False: every line is read as new, and no line is kept for that (LLVM prints each function at
    # column 0 in every dump: none of lz4's 513,477 lines is met at another indent).
    reindents: bool = True
    # (line) -> what a line's facts follow from, less its indent: a line of the shape of one read from a clean tree
    # takes its facts, columns moved by the indent and names read from its own text (linetable.LineTable.derived); None:
    # only a line met again at another indent takes another line's facts (reindents)
    shape: Callable[[str], Hashable] | None = None

    @property
    def renumbers(self) -> bool:
        """Whether its names may be renumbered by a pass ("Ignore renumbering" applies)."""
        return self.names_in is not None or self.lines is not None

    def structure_of(self, lines: list[str]) -> Structure:
        """A fresh reading of the lines' structure."""
        if self.lines is not None:
            return self.lines.analyze(lines)
        return self.analyze(parse(lines, self), lines)


def _no_tree(tree: Tree, lines: list[str]) -> Structure:
    raise AssertionError("a language read by its lines has no tree")


PYTHON = Language(
    "python",
    python.GRAMMAR,
    python.analyze,
    python.calm_boundary,
    cuts=python.cuts,
    elides=True,
    ops=True,
    shape=digits.alike_past_indent,
)
MLIR = Language(
    "mlir",
    mlir.LANGUAGE,
    mlir.analyze,
    names_in=mlir.names_in,
    function_span=mlir.function_span,
    ops=True,
    one_op_a_line=True,
    op_regions=mlir.op_regions,
    laid_out_end=mlir.laid_out_end,
    shape=digits.alike_past_indent,
    cuts=mlir.cuts,
    pieces=(mlir.PIECES_FROM, mlir.PIECE_LINES),
    pieces_for_errors=True,
)
LLVM = Language(
    "llvm",
    None,
    _no_tree,
    lines=LineReader(llvm.analyze_lines, llvm.tokens, llvm.classes, llvm.names, llvm.op_spans, digits.alike),
    label=llvm.demangled,
    reindents=False,
)
LANGUAGES = {language.name: language for language in (PYTHON, MLIR, LLVM)}
