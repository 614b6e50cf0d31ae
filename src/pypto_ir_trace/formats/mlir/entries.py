"""One dump of either kind (a tree's file, a stream's stretch) as discovery found it, before it is a Snapshot."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...dump import Stretch, read_text, snapshot_path
from .headers import Header


@dataclass(frozen=True)
class Entry:
    header: Header
    filename: str
    path: Path | None
    content: str | None
    warnings: str | None
    op_id: str  # whose dump it is: a tree's op folder, a stream's "op @sym", a function key
    local: bool  # holds only its op (no module scope)
    ancestors: tuple[str, ...]  # op_ids of the enclosing ops, outermost first
    where: str  # the op folder's name, for the detail of a local dump
    stretch: Stretch | None = None  # a stream's dump: where it lies in the stream, read when asked

    def text(self) -> str:
        if self.content is not None:
            return self.content
        return self.stretch.read() if self.stretch is not None else read_text(snapshot_path(self.path))
