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
from functools import lru_cache

from ... import splice
from ...dump import joined_lines, split_lines
from ...languages import LLVM
from .metadata import renumbered

_LABEL = re.compile(r'^(?:[-\w.$]+|"(?:[^"\\]|\\.)*"):', re.M)  # a block's label line: `364:`, `for.body:`


_BLOCK_END = re.compile(r"\n(?=\n|\})")  # the newline before a blank line or the function's closing line


def units(text: str) -> list[tuple[str, int, int]]:
    """(key, first line, stop line) of each function; a machine function's key is apart from its IR's."""
    lines = split_lines(text)[0]
    return [
        (region.key if region.kind == "function" else f"{region.kind} {region.key}", region.start, region.end)
        for region in LLVM.structure_of(lines).regions
    ]


@lru_cache(maxsize=32)
def _blocks(text: str) -> dict[str, tuple[int, int]]:
    """label -> (start, stop) offsets of each labelled block: its label line and the lines after it, to the
    blank line or the function's closing line after it (each ended by its newline). Kept for the last texts
    asked for (callers only read the result): a function meets one loop pass after another, mostly unchanged
    by them (lz4 at -O2: 81 % of the texts asked for had been asked for before)."""
    found: dict[str, tuple[int, int]] = {}
    for match in _LABEL.finditer(text):
        start = match.start()
        end = _BLOCK_END.search(text, start)
        found.setdefault(match.group()[:-1], (start, end.start() + 1 if end else len(text)))
    return found


def loop_header(fragment: str) -> str | None:
    """The label of a loop dump's header block (the first block under `; Loop:`), None when it prints none."""
    at = fragment.find("; Loop:\n")
    found = _LABEL.match(fragment, at + len("; Loop:\n")) if at >= 0 else None
    return found.group()[:-1] if found else None


_NUMBER = re.compile(r"\d+")


@lru_cache(maxsize=4)  # a fragment is cut from its unit, then put into it: one answer for both
def _same_blocks(unit: str, fragment: str) -> bool:
    """Whether the fragment's labels name the unit's blocks: some do, and most of those that do hold the same
    instructions but for their numbers. A pass that adds or drops values renumbers the rest of its function,
    which a loop's dump does not show: the unit's text keeps the old numbers, and a label of the fragment may
    name another block there."""
    blocks, printed = _blocks(unit), _blocks(fragment)
    shared = [label for label in printed if label in blocks]
    alike = sum(_alike(unit[slice(*blocks[label])], fragment[slice(*printed[label])]) for label in shared)
    return bool(shared) and 2 * alike >= len(shared)


def _alike(block: str, other: str) -> bool:
    """Whether two blocks hold the same instructions but for their numbers (most are equal as they stand)."""
    return block == other or _NUMBER.sub("", block) == _NUMBER.sub("", other)


def fragment_cut(unit: str, fragment: str) -> str | None:
    """The fragment's blocks as they stand in the unit (the module docstring), None when it has none of them."""
    if not _same_blocks(unit, fragment):
        return None
    blocks, printed = _blocks(unit), _blocks(fragment)
    kept, at = [], 0
    for label, (start, stop) in printed.items():  # in text order
        between = fragment[at:start]
        if label in blocks:
            kept += [between, unit[slice(*blocks[label])]]
        elif between.strip():  # a section line before a block the pass made: kept, without the block
            kept.append(between)
        at = stop
    kept.append(fragment[at:])
    return "".join(kept)


def fragment_put(unit: str, fragment: str) -> str | None:
    """The unit with the fragment's blocks in place of its own (the module docstring); None when the unit has
    none of them."""
    if not _same_blocks(unit, fragment):
        return None
    blocks, printed = _blocks(unit), _blocks(fragment)
    after: dict[str, list[str]] = {}  # a label of the unit -> the new blocks to put after it
    previous = None
    for label, (start, stop) in printed.items():
        if label in blocks:
            previous = label
        elif previous is not None:
            after.setdefault(previous, []).append("\n" + fragment[start:stop])
    kept, at = [], 0
    for label, (start, stop) in blocks.items():
        kept.append(unit[at:start])
        kept.append(fragment[slice(*printed[label])] if label in printed else unit[start:stop])
        kept += after.get(label, ())
        at = stop
    kept.append(unit[at:])
    return "".join(kept)


def numbered(made: str, dump: str) -> str:
    """`made` with its metadata and attribute groups named as `dump` names them (metadata.py): as one text, else
    part by part: each function against the dump's function of that name, the lines outside functions (globals,
    the `!N = ...` definitions, `attributes #N`) against the dump's (a module put together from dumps of its
    functions holds each one's own numbering: no one renaming names them all)."""
    whole = renumbered(made, dump)
    if whole is not made or made == dump:
        return whole
    mine = units(made)
    if len(mine) < 2:
        return made
    found = units(dump)
    theirs = {key: (first, stop) for key, first, stop in found}
    lines, others = split_lines(made)[0], split_lines(dump)[0]
    parts = [(list(range(first, stop)), list(range(*theirs[key]))) for key, first, stop in mine if key in theirs]
    parts.append((_outside(mine, len(lines)), _outside(found, len(others))))
    kept, renamed = list(lines), False
    for rows, other_rows in parts:
        own = joined_lines([lines[row] for row in rows])
        new = renumbered(own, joined_lines([others[row] for row in other_rows]))
        if new is not own:  # the same lines, renamed: as many
            for row, line in zip(rows, split_lines(new)[0], strict=True):
                kept[row] = line
            renamed = True
    if not renamed:
        return made
    text = joined_lines(kept)
    return text if made.endswith("\n") else text[:-1]


def _outside(found: list[tuple[str, int, int]], count: int) -> list[int]:
    """The rows of a text's `count` lines that no unit of `found` holds."""
    inside = {row for _, first, stop in found for row in range(first, stop)}
    return [row for row in range(count) if row not in inside]


GRAMMAR = splice.Grammar(units=units, numbered=numbered, fragment_cut=fragment_cut, fragment_put=fragment_put)
