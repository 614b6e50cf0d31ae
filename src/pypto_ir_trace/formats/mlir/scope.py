"""Local-scope dumps (no --mlir-print-ir-module-scope) hold only their op: the op's text cut out of an
enclosing dump, and a whole dump with a local dump put in place of its op (the IR the next pass received)."""

from __future__ import annotations

import re
from dataclasses import replace

from ...dump import split_lines
from .entries import Entry
from .ops import locate, named, op_regions, single_op

_ALIAS = re.compile(r"^(?P<name>[#!][A-Za-z_][\w.$-]*) = ")  # an attribute or type alias definition


def defined_more_than_once(source_text: str, entry: Entry) -> bool:
    """Whether several ops of an enclosing dump carry the local entry's name and its folder cannot choose:
    a stream's local dump names only `@f`, and `module @a` and `module @b` may both define one."""
    key = _op_key(entry)
    if key is None:
        return False
    name = key.rsplit("::", 1)[-1]
    found = named(op_regions(source_text), name)
    return len(found) > 1 and locate(found, name, entry.op_id) is None


def _op_key(entry: Entry) -> str | None:
    """The key of the op a local entry dumps: a stream's is its op_id, a tree's is read from its file."""
    return single_op(entry.text()) if entry.content is None else entry.op_id


def _region_in(source_text: str, entry: Entry, regions: tuple | None = None):
    """Where the local entry's op stands in an enclosing dump's text (its op regions, if known), or None."""
    key = _op_key(entry)
    if key is None:
        return None
    name = key.rsplit("::", 1)[-1]
    region = locate(op_regions(source_text) if regions is None else regions, name, entry.op_id)
    if region is None or (entry.where and not entry.where.endswith(f"_{name.removeprefix('@')}")):
        return None
    return region


def cut(source_text: str, entry: Entry) -> str | None:
    """The entry's op as it stands in an enclosing dump, dedented: the text its first local dump is
    diffed against (without a header line: a snapshot's text has none)."""
    region = _region_in(source_text, entry)
    if region is None:
        return None
    lines, _ = split_lines(source_text)
    indent = len(lines[region.def_line]) - len(lines[region.def_line].lstrip(" "))
    body = [
        line[indent:] if not line[:indent].strip() else line.lstrip(" ") for line in lines[region.start : region.end]
    ]
    return _without_aliases("".join(line + "\n" for line in body) + "\n", lines)


def _without_aliases(text: str, lines: list[str]) -> str:
    """The text with the aliases the dump `lines` defines (`#map = affine_map<...>` before its top op)
    written out: a local-scope dump prints every attribute and type in full."""
    aliases = {}
    for line in lines[1:]:
        match = _ALIAS.match(line)
        if match is None:
            break
        aliases[match["name"]] = line[match.end() :]
    if not aliases:
        return text
    used = re.compile("|".join(re.escape(name) for name in sorted(aliases, key=len, reverse=True)) + r"(?![\w.$-])")
    for _ in range(len(aliases)):  # an alias may be defined with another
        text, count = used.subn(lambda m: aliases[m.group()], text)
        if not count:
            break
    return text


def splice(whole: str, regions: tuple, entry: Entry) -> tuple[str, tuple] | None:
    """The whole dump's text (header line first, its op regions given) with the local entry's op replaced by
    the entry's text, indented to where the op stands, and the new text's regions; None when the op cannot
    be found in it."""
    region = _region_in(whole, entry, regions)
    if region is None:
        return None
    lines, _ = split_lines(whole)
    indent = lines[region.def_line][: len(lines[region.def_line]) - len(lines[region.def_line].lstrip(" "))]
    own = split_lines(entry.text())[0][1:]  # after its header line
    while own and not own[-1].strip():  # a dump ends with a blank line
        own.pop()
    body = [indent + line if line else line for line in own]
    spliced = [*lines[: region.start], *body, *lines[region.end :]]
    kept = _used_aliases(spliced)
    text = "".join(line + "\n" for line in kept)
    moved = _moved(regions, region, op_regions(entry.text()), len(body), len(spliced) - len(kept))
    return text, moved if moved is not None else op_regions(text)


def _moved(regions: tuple, region, own: tuple, length: int, dropped: int) -> tuple | None:
    """The regions after `region` was replaced by `length` lines (its local dump's regions `own`, header at row
    0) and `dropped` alias lines above every op went: found without parsing the text again (a big module,
    spliced once per local dump). None when the op holds other regions or its dump names it otherwise."""
    if (
        len(own) != 1
        or own[0].end - own[0].start != length
        or own[0].key.rsplit("::", 1)[-1] != region.key.rsplit("::", 1)[-1]
    ):
        return None
    delta = length - (region.end - region.start)
    moved = []
    for r in regions:
        if r == region:
            r = replace(r, end=r.start + length, def_line=r.start + own[0].def_line - own[0].start)
        elif r.start >= region.end:
            r = replace(r, start=r.start + delta, end=r.end + delta, def_line=r.def_line + delta)
        elif r.start <= region.start and region.end <= r.end:
            r = replace(r, end=r.end + delta)
        elif r.end > region.start:  # inside the op: its dump decides what is there now
            return None
        moved.append(replace(r, start=r.start - dropped, end=r.end - dropped, def_line=r.def_line - dropped))
    return tuple(moved)


def _used_aliases(lines: list[str]) -> list[str]:
    """The lines without the alias definitions (`#map = ...` before the top op) that nothing uses any more:
    MLIR prints only the aliases the IR uses, and a local dump prints none (its attributes in full)."""
    definitions = []
    for row in range(1, len(lines)):
        match = _ALIAS.match(lines[row])
        if match is None:
            break
        definitions.append((row, match["name"]))
    text = "\n".join(lines)
    unused = {row for row, name in definitions if len(re.findall(re.escape(name) + r"(?![\w.$-])", text)) < 2}
    return [line for row, line in enumerate(lines) if row not in unused]
