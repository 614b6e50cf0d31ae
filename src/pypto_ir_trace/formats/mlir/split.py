"""The chunks of a --split-input-file stream: mlir-opt runs the pipeline once per `// -----` chunk of its input, each
from its first pass, and prints nothing between them; each chunk is a pipeline of its own.

A chunk starts at a dump of the stream's first pass (the same pass argument, on the same kind of op when the
headers name it) that follows a dump of another pass, or that follows a dump of the whole IR by the same pass
(a one-pass pipeline), when the IR from there on shares no symbol (function or named module) with the chunk so
far. From there on: up to the first dump of the whole IR or the next such dump; so far: from the chunk's last
dump of the whole IR (or its start). A pipeline that runs its first pass again (a nested pipeline on the next
function, canonicalize twice) runs it on IR of the same program, which names the same functions. A chunk also
starts there when the chunk so far ran exactly the passes of the last chunk that ran to its end (not failed):
test files reuse a function's name from one chunk to the next. Not told apart, so kept in one pipeline: chunks
that reuse the names of a chunk that ran other passes (more functions, or a failure), and chunks of a
local-scope stream that prints no dump of the whole IR (each function alone is all there is to compare).
"""

from __future__ import annotations

import itertools

from .entries import Entry
from .ops import ops_of


def chunks(dumps: list[Entry]) -> list[list[Entry]]:
    """The stream's dumps cut into its chunks, in order (one chunk when the stream is not split)."""
    symbols = _Symbols(dumps)
    starts = [0]
    whole = 0 if _whole(dumps[0]) else None  # the chunk's last dump of the whole IR
    template: list[tuple[str, str | None]] | None = None  # the passes of the last chunk that ran to its end
    for k in range(1, len(dumps)):
        if _starts_again(dumps, k):
            before, seen = symbols.between(starts[-1] if whole is None else whole, k)
            after, reached = symbols.from_on(k)
            if ((seen or reached) and before and after and not before & after) or _steps(
                dumps[starts[-1] : k]
            ) == template:
                if not dumps[k - 1].header.failed:
                    template = _steps(dumps[starts[-1] : k])
                starts.append(k)
                whole = None
        if _whole(dumps[k]):
            whole = k
    return [dumps[a:b] for a, b in itertools.pairwise([*starts, len(dumps)])]


def _steps(dumps: list[Entry]) -> list[tuple[str, str | None]]:
    """What ran, pass by pass: the pass argument and the kind of op the header names."""
    return [(entry.header.arg, entry.header.op) for entry in dumps]


def first_symbols(chunk: list[Entry], shown: int = 2) -> str:
    """What a chunk is called by: the symbol its first dump ran on, else the first functions its IR defines."""
    first = chunk[0]
    if first.header.sym:
        return first.header.sym
    if first.local:
        return first.op_id
    names = [r.key for r in ops_of(first.text()).regions if r.kind == "function"]
    return ", ".join(names[:shown]) + (" ..." if len(names) > shown else "")


def _whole(entry: Entry) -> bool:
    """A dump whose text holds the whole IR: any with module scope, a dump of the top op without it."""
    return not entry.local


def _starts_again(dumps: list[Entry], k: int) -> bool:
    first, before, here = dumps[0].header, dumps[k - 1], dumps[k]
    if (here.header.arg, here.header.op) != (first.arg, first.op):
        return False
    return before.header.arg != first.arg or (_whole(before) and _whole(here))


class _Symbols:
    """The symbols each dump's IR defines, read once (a local dump's is its op's name, known without a parse)."""

    def __init__(self, dumps: list[Entry]) -> None:
        self._dumps = dumps
        self._of: dict[int, set[str]] = {}

    def of(self, k: int) -> set[str]:
        if k not in self._of:
            entry = self._dumps[k]
            if entry.local:
                self._of[k] = {entry.op_id.rsplit("::", 1)[-1]}
            else:
                self._of[k] = {name for name in ops_of(entry.text()).by_name if name.startswith("@")}
        return self._of[k]

    def between(self, start: int, stop: int) -> tuple[set[str], bool]:
        """The symbols of dumps [start, stop), and whether one of them holds the whole IR."""
        found = set().union(*(self.of(k) for k in range(start, stop)))
        return found, any(_whole(self._dumps[k]) for k in range(start, stop))

    def from_on(self, k: int) -> tuple[set[str], bool]:
        """The symbols of the dumps from k to the first that holds the whole IR (whether one does), or to the
        next dump where a chunk may start."""
        found: set[str] = set()
        for at in range(k, len(self._dumps)):
            if at > k and _starts_again(self._dumps, at):
                break
            found |= self.of(at)
            if _whole(self._dumps[at]):
                return found, True
        return found, False
