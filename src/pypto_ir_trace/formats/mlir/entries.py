"""One dump of either kind (a tree's file, a stream's stretch) as discovery found it, before it is a Snapshot; and
its text after the header line, what the snapshot shows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...dump import Stretch, read_text, snapshot_path
from .headers import Header


@dataclass(frozen=True)
class Body:
    """A dump's text after its header line, read when asked: its snapshot's text (Snapshot.source)."""

    of: Stretch | Path  # a stream's stretch, or a tree's file

    def dumped(self) -> str:
        """The dump as the compiler wrote it, its header line first."""
        return self.of.read() if isinstance(self.of, Stretch) else read_text(self.of)

    def read(self) -> str:
        text = self.dumped()
        return text[text.find("\n") + 1 :] if "\n" in text else ""


@dataclass(frozen=True)
class Entry:
    header: Header
    filename: str
    path: Path | None
    warnings: str | None
    op_id: str  # whose dump it is: a tree's op folder, a stream's "op @sym", a function key
    local: bool  # holds only its op (no module scope)
    ancestors: tuple[str, ...]  # op_ids of the enclosing ops, outermost first
    where: str  # the op folder's name, for the detail of a local dump
    stretch: Stretch | None = None  # a stream's dump: where it lies in the stream, read when asked
    told: bool = False  # local, and op_id names a kind of op only: its text tells which (scope.py)

    @property
    def body(self) -> Body:
        return Body(self.stretch if self.stretch is not None else snapshot_path(self.path))

    def text(self) -> str:
        """The dump, its header line first."""
        return self.body.dumped()

    def size(self) -> int:
        """The dump's bytes, its header line first."""
        if self.stretch is not None:
            return self.stretch.stop - self.stretch.start
        try:
            return snapshot_path(self.path).stat().st_size
        except OSError:
            return 0  # reading it says why
