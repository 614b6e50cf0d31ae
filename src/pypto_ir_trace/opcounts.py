"""What a pass did to the program's ops, in one line (`pl.tile.load +32, pl.tensor.matmul −4`).

Which nodes are ops is the language's knowledge (grammars/<language>/ops.scm's @op); here each line's op
names are read from the walk's captures, once per distinct line, and a pass's delta is counted over the
lines its diff deletes and inserts: the cost follows the change, and the figures are exactly those of the
lines the diff view shows as changed.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence

QUERY = "ops"


def ops_of(
    captures: dict, lines: list[str], offsets: list[int], first: int, stop: int, first_only: bool = False
) -> Iterator[tuple[int, tuple]]:
    """(row, op names on it in order) for the rows of [first, stop) that name any; `first_only`: the first name
    of each row alone (Language.one_op_a_line)."""
    found: dict[int, list[tuple[int, str]]] = {}
    for node in captures.get("op", ()):
        start, end = node.start_byte, node.end_byte
        row = bisect_right(offsets, start) - 1
        if first <= row < stop and end < offsets[row + 1]:  # a name is on one line
            line = lines[row]
            low, high = start - offsets[row], end - offsets[row]
            name = line[low:high] if line.isascii() else line.encode("utf-8", "surrogatepass")[low:high].decode()
            # a generic MLIR op's name is quoted; after a syntax error, tree-sitter's recovery may read the blank
            # before a name into its token (` "arith.muli"` in an IREE or LLVM-dialect dump)
            found.setdefault(row, []).append((low, name.strip(' \t"')))
    for row in sorted(found):
        names = [name for _, name in sorted(found[row])]
        yield row, tuple(names[:1] if first_only else names)


def deltas(
    segments: Sequence[Sequence[Sequence[int]]],
    before: Sequence[int],
    inserted_ids: Sequence[int],
    ops: Sequence[tuple[str, ...]],
) -> tuple[tuple[str, int], ...]:
    """(op, count after minus count before) of a diff, the largest change first, then by name; `segments`:
    each piece's (model.Piece), `before`: the before text's line ids, `ops`: line id -> its op names."""
    count: Counter[str] = Counter()
    for line_id in inserted_ids:
        count.update(ops[line_id])
    for piece in segments:
        for segment in piece:
            b = segment[0]
            for at in range(2, len(segment), 3):
                b += segment[at]
                for line_id in before[b : b + segment[at + 1]]:
                    count.subtract(ops[line_id])
                b += segment[at + 1]
    return tuple(sorted(((op, n) for op, n in count.items() if n), key=lambda item: (-abs(item[1]), item[0])))
