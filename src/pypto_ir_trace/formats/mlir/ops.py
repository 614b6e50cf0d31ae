"""Where an op stands in a dump's text: the ops the language finds (Language.op_regions) found by name."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ... import structure
from ...dump import split_lines
from ...languages import MLIR


@dataclass(frozen=True)
class Ops:
    """A dump's text split into lines, its op regions, and those regions by their own name: one enclosing
    dump is asked for the ops of many local dumps, so a lookup costs a dictionary access, not a scan."""

    text: str
    lines: list[str]
    regions: tuple
    by_name: dict[str, list]

    def named(self, name: str) -> list:
        """The regions whose key ends in `name` (the op's own name, whatever modules enclose it)."""
        return self.by_name.get(name, [])

    def locate(self, name: str, folder_path: str):
        """The one region named `name`; the folders break ties between modules."""
        found = self.named(name)
        if len(found) > 1:
            found = [r for r in found if all(f"_{m}" in folder_path for m in r.key.split("::")[:-1])]
        return found[0] if len(found) == 1 else None


@lru_cache(maxsize=8)  # the enclosing dump, and the local dumps asked about just now
def ops_of(text: str) -> Ops:
    lines = split_lines(text)[0]
    regions = tuple(MLIR.op_regions(structure.parse(lines, MLIR)))
    by_name: dict[str, list] = {}
    for region in regions:
        name = region.key.rsplit("::", 1)[-1]
        for spelling in {name, unquoted(name)}:
            by_name.setdefault(spelling, []).append(region)
    return Ops(text, lines, regions, by_name)


def unquoted(name: str) -> str:
    """A symbol as a header line names it: the IR quotes one that is not a bare identifier
    (`@"_insert_dense_-9223"`), the header prints it raw (`@_insert_dense_-9223`)."""
    if name.startswith('@"') and name.endswith('"') and len(name) > 2:
        return "@" + name[2:-1]
    return name


def single_op(text: str) -> str | None:
    """The key of the one op (a function or a named module) a local dump holds after its header, or None.

    Read from the op's first line alone when the dump has the printer's layout (the op opens at column 0, every
    line of its body is indented but its block labels, and it ends with the `}` at column 0): a local-scope
    stream holds thousands of these, and parsing each whole costs as much as the rest of the report."""
    lines = text.split("\n")
    rows = [row for row in range(1, len(lines)) if lines[row].strip()]
    if not rows:
        return None
    opener, last = lines[rows[0]], lines[rows[-1]]
    if opener[:1] in ("", " ", "\t", "#", "!", "}") or opener.startswith(("module {", "module attributes")):
        return None  # indented, an alias, or the unnamed top module: a whole dump
    body = rows[1:]
    if not body or (
        last == "}" and opener.rstrip().endswith("{") and all(lines[row][:1] in (" ", "\t", "^") for row in body[:-1])
    ):
        found = ops_of(opener + ("\n}\n" if body else "\n"))
        if len(found.regions) == 1 and found.regions[0].start == 0:
            return found.regions[0].key
        if not any(region.start == 0 for region in found.regions):
            return None  # an op the language names no region for (`util.initializer`): nor would the whole dump
    return _parsed_single_op(text)


def _parsed_single_op(text: str) -> str | None:
    found = ops_of(text)
    if not found.regions:
        return None
    outer = found.regions[0]  # sorted by start, the widest first
    outside = found.lines[1 : outer.start] + found.lines[outer.end :]
    return outer.key if not any(line.strip() for line in outside) else None
