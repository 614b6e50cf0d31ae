"""Where an op stands in a dump's text: its function regions (languages/mlir.py) found by name."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ... import structure
from ...dump import split_lines
from ...languages import MLIR
from ...languages import mlir as language


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
    regions = tuple(language.op_regions(structure.parse(lines, MLIR)))
    by_name: dict[str, list] = {}
    for region in regions:
        name = region.key.rsplit("::", 1)[-1]
        for spelling in {name, _unquoted(name)}:
            by_name.setdefault(spelling, []).append(region)
    return Ops(text, lines, regions, by_name)


def _unquoted(name: str) -> str:
    """A symbol as a header line names it: the IR quotes one that is not a bare identifier
    (`@"_insert_dense_-9223"`), the header prints it raw (`@_insert_dense_-9223`)."""
    if name.startswith('@"') and name.endswith('"') and len(name) > 2:
        return "@" + name[2:-1]
    return name


def op_regions(text: str) -> tuple:
    return ops_of(text).regions


def single_op(text: str) -> str | None:
    """The key of the one op (a function or a named module) a local dump holds after its header, or None."""
    found = ops_of(text)
    if not found.regions:
        return None
    outer = found.regions[0]  # sorted by start, the widest first
    outside = found.lines[1 : outer.start] + found.lines[outer.end :]
    return outer.key if not any(line.strip() for line in outside) else None
