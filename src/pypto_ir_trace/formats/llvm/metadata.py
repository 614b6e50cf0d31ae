"""LLVM numbers metadata and attribute groups afresh each time it prints: `!tbaa !5` in a module's print is
`!tbaa !12` in the print of one of its functions (which defines none of them), `#0` there may be `#11` in a call-graph
SCC's, and a module's numbers move when a node elsewhere comes or goes.
A text the splice makes out of one print (a function cut out of a module dump, a module with function dumps put in)
and diffed against a dump of another would show every such reference as changed by the dump's pass: on lz4 at -O2,
5 of the 22 function texts that differ from the one before differ only so.

`renumbered(made, dump)` names the made text's references as the dump names them, where the two texts' lines agree
but for those numbers (the line diff of the texts with every reference masked): each reference of an agreeing line
is the dump's reference at the same place. Where that is not one consistent renaming (a number that stands for two,
two that become one, a number kept for a node that is renamed elsewhere), the made text is kept as it is.
"""

from __future__ import annotations

import re
from collections import Counter

from ...dump import split_lines
from ...linediff import diff

# a numbered metadata node (`!5`, not `!tbaa` nor `!llvm.loop`) or attribute group (`#0`), and its number alone
_REFERENCE = re.compile(r"[!#]\d+(?![\w.$-])")
# each kind's numbers masked (a character no printed text holds in their place): one pattern a kind, which opens
# with its sigil, is found at C speed: 1.1 ms per 400 KB of IR, where a look-behind for either sigil took 7.8 ms
_MASKS = [(re.compile(sigil + r"\d+(?![\w.$-])"), sigil + "\0") for sigil in "!#"]


def renumbered(made: str, dump: str) -> str:
    """The made text with its metadata references named as `dump` names them (the module docstring)."""
    if made == dump:
        return made
    names: dict[str, str] = {}
    masked, refs = (_masked(made), _masked(dump)), _REFERENCE.findall(made)
    if masked[0] == masked[1]:  # they differ in their numbers alone (a pass that changed nothing): one pairing
        if not _named_alike(refs, _REFERENCE.findall(dump), names):
            return made
    elif not _named_where_alike(made, dump, masked, names, set(refs)):
        return made
    if all(old == new for old, new in names.items()) or not _one_to_one(names, set(refs)):
        return made
    return _REFERENCE.sub(lambda match: names.get(match.group(), match.group()), made)


def numbered_alike(made: str, dump: str) -> bool:
    """Whether two texts name the same metadata nodes and attribute groups: two prints of one function mostly do,
    unless a node or group came or went elsewhere in the module and moved the numbers."""
    return made == dump or set(_REFERENCE.findall(made)) == set(_REFERENCE.findall(dump))


def _masked(text: str) -> str:
    for pattern, mask in _MASKS:
        text = pattern.sub(mask, text)
    return text


def _named_where_alike(made: str, dump: str, masked: tuple[str, str], names: dict[str, str], refs: set[str]) -> bool:
    """Adds the names of the references on the lines that agree but for their numbers; False when one is named
    two ways. The lines that occur once on each side pair up alone (patience's anchors) and most often name
    every reference (`refs`, the made text's); else the line diff pairs the lines."""
    ours, theirs = split_lines(made)[0], split_lines(dump)[0]
    mine, other = split_lines(masked[0])[0], split_lines(masked[1])[0]
    pairs = _once_each(mine, other)
    if not _named_pairs(ours, theirs, pairs, names):
        return False
    if refs <= names.keys():
        return True
    pairs = [
        (block.b_start + k, block.a_start + k) for block in diff(mine, other) if block.equal for k in range(block.b_len)
    ]
    return _named_pairs(ours, theirs, pairs, names)


def _once_each(mine: list[str], other: list[str]) -> list[tuple[int, int]]:
    """(row, row) of each line with a reference that occurs once in each list."""
    seen, theirs = Counter(mine), Counter(other)
    at = {line: row for row, line in enumerate(other) if theirs[line] == 1 and ("!" in line or "#" in line)}
    return [(row, at[line]) for row, line in enumerate(mine) if line in at and seen[line] == 1]


def _named_pairs(ours: list[str], theirs: list[str], pairs: list[tuple[int, int]], names: dict[str, str]) -> bool:
    return all(_named_alike(_REFERENCE.findall(ours[a]), _REFERENCE.findall(theirs[b]), names) for a, b in pairs)


def _named_alike(mine: list[str], other: list[str], names: dict[str, str]) -> bool:
    """Adds each reference's name in the dump (the other line's reference at the same place); False when one was
    named otherwise before."""
    return len(mine) == len(other) and all(names.setdefault(old, new) == new for old, new in zip(mine, other))


def _one_to_one(names: dict[str, str], refs: set[str]) -> bool:
    """Whether no two of the made text's references (`refs`) get one name: two named alike, or one left as it is
    (its line differs) whose number another takes."""
    taken = set(names.values())
    if len(taken) != len(names):
        return False
    return all(ref in names or ref not in taken for ref in refs)
