"""Where an op stands in a dump's text: its function regions (languages/mlir.py) found by name."""

from __future__ import annotations

from functools import lru_cache

from ... import structure
from ...dump import split_lines
from ...languages import MLIR
from ...languages import mlir as language


@lru_cache(maxsize=16)
def op_regions(text: str) -> tuple:
    return tuple(language.op_regions(structure.parse(split_lines(text)[0], MLIR)))


def single_op(text: str) -> str | None:
    """The key of the one op (a function or a named module) a local dump holds after its header, or None."""
    lines, _ = split_lines(text)
    regions = op_regions(text)
    if not regions:
        return None
    outer = regions[0]  # sorted by start, the widest first
    outside = lines[1 : outer.start] + lines[outer.end :]
    return outer.key if not any(line.strip() for line in outside) else None


def named(regions, name: str) -> list:
    """The regions whose key ends in `name` (the op's own name, whatever modules enclose it)."""
    return [r for r in regions if r.key == name or r.key.endswith(f"::{name}")]


def locate(regions, name: str, folder_path: str):
    """The one region named `name` (last key component); the folders break ties between modules."""
    found = named(regions, name)
    if len(found) > 1:
        found = [r for r in found if all(f"_{m}" in folder_path for m in r.key.split("::")[:-1])]
    return found[0] if len(found) == 1 else None
