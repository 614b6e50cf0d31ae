"""How LLVM's units lie in its texts, for the splice (splice.Grammar): functions and machine functions as the
language finds them, several printed one after the other (a call-graph SCC), and a loop's blocks in its function.

A loop dump prints the loop's blocks in three sections (`; Preheader:`, `; Loop:`, `; Exit blocks`), each block
from its label line (`364:`, `for.body:`) to the blank line after it. Blocks are found in a function by label:
- cut: the fragment with each block replaced by the function's block of that label; a block the function does
  not have yet is left out (the pass made it);
- put: each of the function's blocks that the fragment prints replaced by the fragment's, a block the function
  does not have put after the fragment's block before it.
Labels are the printer's numbers when values are unnamed (`clang` without `-fno-discard-value-names`): a pass
that adds or drops values renumbers the rest of the function, which the fragment does not show; the function's
next dump shows it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ... import splice
from ...dump import split_lines
from ...languages import LLVM

_LABEL = re.compile(r'^(?P<label>[-\w.$]+|"(?:[^"\\]|\\.)*"):')
_SECTION = "; "  # a section line of a loop dump ("; Loop:")


def units(text: str) -> list[tuple[str, int, int]]:
    """(key, first line, stop line) of each function; a machine function's key is apart from its IR's."""
    lines = split_lines(text)[0]
    return [
        (region.key if region.kind == "function" else f"{region.kind} {region.key}", region.start, region.end)
        for region in LLVM.structure_of(lines).regions
    ]


def _blocks(lines: Sequence[str]) -> dict[str, tuple[int, int]]:
    """label -> (first, stop) lines of each labelled block: from its label line to the next blank, label,
    section or closing line."""
    found: dict[str, tuple[int, int]] = {}
    row, count = 0, len(lines)
    while row < count:
        match = _LABEL.match(lines[row])
        if match is None:
            row += 1
            continue
        stop = row + 1
        while stop < count and lines[stop].startswith((" ", "\t")) and lines[stop].strip():
            stop += 1
        found.setdefault(match["label"], (row, stop))
        row = stop
    return found


def fragment_cut(unit: str, fragment: str) -> str | None:
    """The fragment's blocks as they stand in the unit (the module docstring), None when it has none of them."""
    own, theirs = split_lines(unit)[0], split_lines(fragment)[0]
    blocks, printed = _blocks(own), _blocks(theirs)
    if not printed or not any(label in blocks for label in printed):
        return None
    kept, at = [], 0
    for label, (first, stop) in sorted(printed.items(), key=lambda item: item[1]):
        kept += theirs[at:first]
        if label in blocks:
            start, end = blocks[label]
            kept += own[start:end]
        elif kept and not kept[-1].strip() and first > 0:
            kept.pop()  # the blank line before a block left out
        at = stop
    kept += theirs[at:]
    return "".join(line + "\n" for line in kept)


def fragment_put(unit: str, fragment: str) -> str | None:
    """The unit with the fragment's blocks in place of its own (the module docstring); None when the unit has
    none of them."""
    own, theirs = split_lines(unit)[0], split_lines(fragment)[0]
    blocks, printed = _blocks(own), _blocks(theirs)
    if not printed or not any(label in blocks for label in printed):
        return None
    after: dict[str, list[str]] = {}  # a label of the unit -> the new blocks to put after it
    previous = None
    for label, (first, stop) in sorted(printed.items(), key=lambda item: item[1]):
        if label not in blocks and previous is not None:
            after.setdefault(previous, []).extend(["", *theirs[first:stop]])
        if label in blocks:
            previous = label
    kept, at = [], 0
    for label, (start, end) in sorted(blocks.items(), key=lambda item: item[1]):
        kept += own[at:start]
        if label in printed:
            first, stop = printed[label]
            kept += theirs[first:stop]
        else:
            kept += own[start:end]
        kept += after.get(label, [])
        at = end
    kept += own[at:]
    return "".join(line + "\n" for line in kept)


GRAMMAR = splice.Grammar(units=units, fragment_cut=fragment_cut, fragment_put=fragment_put)
