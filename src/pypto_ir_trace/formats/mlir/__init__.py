"""Discovery of MLIR pass dumps: --mlir-print-ir-tree-dir trees (tree.py) and --mlir-print-ir-after-all
streams (stream.py, cut into chunks by split.py), each dump starting with its header line (headers.py); what each snapshot is diffed
against (snapshots.py, on the format-neutral splice.py), local-scope ops found, cut out and put back by scope.py.

What --help and the report say of the format is here; the readers are imported when first used (PEP 562): a run
reads one format, and these, with the splice and the op finder under them, cost 15 ms of every start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import exports as _exports

STREAM_HELP = (
    "a file of --mlir-print-ir-after-all output (stderr, also with -before-all): IR Dump headers start each dump"
)
TREE_HELP = (
    "an --mlir-print-ir-tree-dir directory: <counters>_<pass>.mlir files, one folder per op (module scope or "
    "local scope)"
)
INPUT_NAME = "(input not dumped)"  # snapshot 0 (its name and file name): MLIR prints no copy of the pipeline's input

# Each export's module (and its name there)
_EXPORTS = {
    "HEADER_PREFIX": ("headers", "HEADER_PREFIX"),
    "Header": ("headers", "Header"),
    "parse_header": ("headers", "parse_header"),
    "anchors": ("stream", "anchors"),
    "errors": ("stream", "errors"),
    "looks_like_stream": ("stream", "looks_like_stream"),
    "read_chunks": ("stream", "read_chunks"),
    "read_stream": ("stream", "read_stream"),
    "looks_like_tree": ("tree", "looks_like_tree"),
    "read_tree": ("tree", "read_tree"),
    "tree_below": ("tree", "tree_below"),
    "tree_depth": ("tree", "tree_depth"),
    "tree_reads_path": ("tree", "reads_path"),
}

if TYPE_CHECKING:
    from .headers import HEADER_PREFIX, Header, parse_header
    from .stream import anchors, errors, looks_like_stream, read_chunks, read_stream
    from .tree import looks_like_tree, read_tree, tree_below, tree_depth
    from .tree import reads_path as tree_reads_path


__getattr__ = _exports(__name__, _EXPORTS, globals())


__all__ = [
    "HEADER_PREFIX",
    "INPUT_NAME",
    "STREAM_HELP",
    "TREE_HELP",
    "Header",
    "anchors",
    "errors",
    "looks_like_stream",
    "looks_like_tree",
    "parse_header",
    "read_chunks",
    "read_stream",
    "read_tree",
    "tree_below",
    "tree_depth",
    "tree_reads_path",
]
