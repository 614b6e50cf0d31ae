"""The order of sibling ops in a tree, which the file names do not record.

A tree file's numbers put it after its ancestors' dumps (tree.py), but two ops dumped after the same parent
dump (two functions a nested pipeline ran on) carry no number that orders them. A pass manager runs a nested
pipeline to its end on one op before the next, so each op's dumps are kept together; which op ran first:

1. Module scope (every file holds the whole IR): the content decides. Each sibling op stands in its own stretch
   of lines (from the line that opens it, at the siblings' indentation, to the next), and a pass changes only
   its own op, so one op's stretch in another op's dump tells whether the first op's passes had run yet: it is
   as its last dump shows it (they had), or as the dump before the siblings shows it (they had not). So op a
   ran before op b when b's first dump shows a as a's passes left it and that differs from before them, and
   after b when b's first dump shows a otherwise. The ops are placed in the order these facts give; where
   none tells (ops whose passes left them as they were: either order prints the same texts), in IR order
   (rule 2), then by folder name. Without a dump before the siblings (nested passes that ran before their
   parent's first dump), the first is the op whose first dump shows the fewest others as their passes left
   them. When the facts contradict each other (an op's dumps not together: a pass visiting ops in rounds), or
   an op's stretch cannot be found, the IR order stays and the note counts it ("could not decide").
2. Local scope (a file holds its op alone): the order the IR lists them, read from a whole dump near them (the
   order a pass manager visits them); folder names where the IR cannot tell.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from functools import lru_cache
from typing import TYPE_CHECKING

from ...dump import read_text
from ...structure import indent_of
from .ops import Ops, ops_of

if TYPE_CHECKING:
    from .tree import TreeFile

Key = tuple[tuple[str, int], ...]  # ((folder, counter), ...) from the top op down


def order(files: list[TreeFile]) -> tuple[list[TreeFile], list[str]]:
    """The files (sorted by key) in tree order, siblings as the module docstring says; and the note on them."""
    ranks, cases, example, unread = _ir_ranks(files)
    files = sorted(files, key=lambda e: (_ranked(e.key, ranks), e.rel.name))
    if not cases:
        return files, []
    scopes = _scopes(files)
    undecided = 0
    for depth in sorted({len(parent) for parent in scopes}, reverse=True):  # a deeper order is part of its op's
        for parent in (p for p in scopes if len(p) == depth):
            undecided += _order_by_content(files, parent, ranks)
        files.sort(key=lambda e: (_ranked(e.key, ranks), e.rel.name))
    module_scope = all(e.header.op is not None for e in files)
    if module_scope:
        how = (
            "in the order their dumps show (every file holds the whole IR: an op dumped after another shows it "
            "as that op's passes left it), else in the order the IR lists them"
        )
        if undecided:
            how += f"; in {undecided} case(s) the content could not decide, and the IR order stands"
    else:
        how = (
            "in the order the IR lists them (a pass that visits them otherwise, or in rounds with no module "
            "dump between, like the inliner running canonicalize, is not followed)"
        )
        if unread:
            how += f"; in {unread} case(s) the IR could not tell, and folder names decide"
    return files, [
        f"the file names do not record the order of sibling ops ({cases} case(s), e.g. {example}): "
        f"each op's dumps are shown together, ops {how}"
    ]


def _ir_ranks(files: list[TreeFile]) -> tuple[dict[tuple, tuple], int, str, int]:
    """Rule 2: {(parent key, op folder): rank} for the sibling ops whose place a whole dump shows, by where their
    symbol stands in it; the others are left out (ranked by folder name). -> (ranks, scopes with siblings,
    an example of one, scopes where the IR could not place every op)."""
    regions_at = lru_cache(maxsize=None)(lambda path: ops_of(read_text(path)))  # this tree only
    groups: dict[tuple, dict[str, TreeFile]] = {}
    for e in files:
        if len(e.key) > 1:
            groups.setdefault(e.key[:-1], {}).setdefault(e.key[-1][0], e)
    ranks: dict[tuple, tuple] = {}
    tops = [e for e in files if len(e.folders) == 1]
    cases = unread = 0
    example = ""
    for parent, ops in groups.items():
        if len(ops) < 2:
            continue
        cases += 1
        if not example:
            more = " ..." if len(ops) > 3 else ""
            example = f"{', '.join(list(ops)[:3])}{more} after {parent[-1][0]} dump {parent[-1][1]}"
        whole = next((f for f in ops.values() if f.header.op is not None), None)
        whole = whole or _top_dump_near(tops, parent, ops, regions_at)
        regions = regions_at(whole.path) if whole is not None else ops_of("")
        for folder, first in ops.items():
            region = _region_of(regions, first)
            if region is not None:
                ranks[(parent, folder)] = (0, region.start, folder)
        unread += any((parent, folder) not in ranks for folder in ops)
    return ranks, cases, example, unread


def _top_dump_near(tops: list[TreeFile], parent: tuple, ops: dict[str, TreeFile], regions_at) -> TreeFile | None:
    """A dump of the top-level op (it holds every op) from the same stretch of the pipeline: the
    nearest after the parent dump, then before it, alternating; the first that shows all these ops,
    else the one that shows most (passes remove functions; the order of the rest does not change)."""
    after = [e for e in tops if e.key >= parent][:2]
    before = [e for e in tops if e.key < parent][-2:][::-1]
    best, found = None, 0
    for top in [t for pair in zip(after + [None] * 2, before + [None] * 2) for t in pair if t is not None]:
        regions = regions_at(top.path)
        count = sum(_region_of(regions, first) is not None for first in ops.values())
        if count > found:
            best, found = top, count
        if found == len(ops):
            break
    return best


def _region_of(ops: Ops, file: TreeFile):
    """The region of the op a file dumps: by the symbol in its header, else by its folder name
    (`<op>_<symbol>`: the longest symbol that ends the folder name, tried from the longest ending down)."""
    sym = file.header.sym
    if sym:
        return ops.locate(sym, file.op_folder) or ops.locate(sym.removeprefix("@"), file.op_folder)
    folder = file.folders[-1]
    for at, char in enumerate(folder):
        if char == "_":
            for name in ("@" + folder[at + 1 :], folder[at + 1 :]):
                if ops.named(name):
                    return ops.locate(name, file.op_folder)
    return None


def _ranked(key: Key, ranks: dict[tuple, tuple]) -> tuple:
    return tuple((ranks.get((key[:i], folder), (1, 0, folder)), counter) for i, (folder, counter) in enumerate(key))


def _scopes(files: list[TreeFile]) -> set[Key]:
    """The parent keys after which two or more sibling ops were dumped."""
    children: dict[Key, set[str]] = {}
    for e in files:
        for depth in range(1, len(e.key)):
            children.setdefault(e.key[:depth], set()).add(e.key[depth][0])
    return {parent for parent, ops in children.items() if len(ops) > 1}


def _order_by_content(files: list[TreeFile], parent: Key, ranks: dict[tuple, tuple]) -> int:
    """Rule 1 for the siblings dumped after `parent`, written into `ranks`; 1 when the content could not decide
    (the IR order stays), else 0. Nothing changes unless every dump involved holds the whole IR."""
    depth = len(parent)
    spans: dict[str, list[int]] = {}  # op folder -> [first index, last index] of its dumps in `files`
    for at, e in enumerate(files):
        if e.key[:depth] == parent and len(e.key) > depth:
            spans.setdefault(e.key[depth][0], [at, at])[1] = at
    start = min(first for first, _ in spans.values())
    previous = files[start - 1] if start > 0 and _same_op(files[start - 1].key, parent) else None
    if any(files[i].header.op is None for span in spans.values() for i in span) or (
        previous and not previous.header.op
    ):
        return 0
    prior = sorted(spans, key=lambda folder: _ranked((*parent, (folder, 0)), ranks)[-1][0])
    stretches = _Stretches(files[spans[prior[0]][0]] if previous is None else previous, files, spans)
    if stretches.positions is None:
        return 1
    first = {folder: stretches.of(files[spans[folder][0]]) for folder in prior}
    last = {folder: stretches.of(files[spans[folder][1]]) for folder in prior}
    if {len(states) for states in [*first.values(), *last.values()]} != {stretches.count}:
        return 1  # an op appeared or went, or a dump holds its op alone: not the nested pipeline this rule knows
    placed = _by_states(prior, stretches.positions, first, last, stretches.of(previous) if previous else None)
    for position, folder in enumerate(placed or prior):
        ranks[(parent, folder)] = (0, position, folder)
    return int(placed is None or None in stretches.positions.values())


def _same_op(key: Key, parent: Key) -> bool:
    """Whether a file with this key is a dump of the parent's op or of something inside it."""
    depth = len(parent)
    return len(key) >= depth and key[: depth - 1] == parent[:-1] and key[depth - 1][0] == parent[-1][0]


class _Stretches:
    """Where each sibling op stands in the scope's dumps: the stretch of lines from the line that opens it (at
    the siblings' indentation) to the next such line, found once in one dump by the IR's regions; every dump
    of the scope has the same stretches, since a pass on one op cannot add or remove its siblings."""

    def __init__(self, reference: TreeFile, files: list[TreeFile], spans: dict[str, list[int]]) -> None:
        ops = ops_of(read_text(reference.path))
        found = {folder: _region_of(ops, files[at]) for folder, (at, _) in spans.items()}
        indents = {indent_of(ops.lines[r.def_line]) for r in found.values() if r is not None}
        self.positions: dict[str, int | None] | None = None
        self.count = 0
        if len(indents) != 1:
            return
        self._indent = indents.pop()
        starts = self._starts(ops.lines)
        self.positions = {f: None if r is None else bisect_right(starts, r.def_line) - 1 for f, r in found.items()}
        self.count = len(starts) - 1  # the stretches of a dump of the whole IR (`of`)

    def _starts(self, lines: list[str]) -> list[int]:
        """Row 0 (what precedes the first op: the header, the aliases) and the rows that open an op: any line at
        the siblings' indentation but an op's closing `}` and the block labels the printer puts there (`^bb1:`)."""
        indent = self._indent
        return [0] + [
            row
            for row, line in enumerate(lines)
            if len(line) > indent and line[indent] not in " \t}^" and not line[:indent].strip(" ")
        ]

    def of(self, file: TreeFile) -> tuple[int, ...]:
        """The hash of each stretch of a dump (the first, before every op, left out: it holds the header)."""
        lines = read_text(file.path).split("\n")
        starts = [*self._starts(lines), len(lines)]
        return tuple(hash("\n".join(lines[a:b])) for a, b in itertools.pairwise(starts[1:]))


def _by_states(
    prior: list[str],
    positions: dict[str, int | None],
    first: dict[str, tuple[int, ...]],
    last: dict[str, tuple[int, ...]],
    before: tuple[int, ...] | None,
) -> list[str] | None:
    """The ops in the order their dumps show (rule 1), ties in `prior`'s order; None when the facts contradict."""
    at = {f: p - 1 for f, p in positions.items() if p is not None}  # stretch index without the leading one
    final = {f: last[f][i] for f, i in at.items()}
    if before is None:  # the first op is the one whose first dump shows the fewest others as their passes left them
        head = min(prior, key=lambda x: (sum(first[x][i] == final[y] for y, i in at.items() if y != x), prior.index(x)))
        initial = {f: first[head][i] for f, i in at.items() if f != head}
    else:
        initial = {f: before[i] for f, i in at.items()}
    after: dict[str, set[str]] = {f: set() for f in prior}  # op -> the ops that ran before it
    for x, i in at.items():
        for y in prior:
            if y == x:
                continue
            if first[y][i] != final[x]:
                after[x].add(y)  # y's dump shows x not yet as its passes left it
            elif x in initial and initial[x] != final[x]:
                after[y].add(x)
    placed: list[str] = []
    while len(placed) < len(prior):
        ready = [f for f in prior if f not in placed and after[f] <= set(placed)]
        if not ready:
            return None
        placed.append(ready[0])
    return placed
