"""Discovery of MLIR pass dumps: --mlir-print-ir-tree-dir trees (tree.py) and --mlir-print-ir-after-all
streams (stream.py, cut into chunks by split.py), each dump starting with its header line (headers.py); what each snapshot is diffed
against (snapshots.py, on the format-neutral splice.py), local-scope ops found, cut out and put back by scope.py."""

from __future__ import annotations

from .headers import HEADER_PREFIX, Header, parse_header
from .snapshots import INPUT as INPUT_NAME
from .stream import HELP as STREAM_HELP
from .stream import anchors, errors, looks_like_stream, read_chunks, read_stream
from .tree import HELP as TREE_HELP
from .tree import looks_like_tree, read_tree, tree_below, tree_depth
from .tree import reads_path as tree_reads_path

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
