"""Local-scope dumps (no --mlir-print-ir-module-scope) hold only their op: how ops lie in MLIR texts, for the
splice (splice.Grammar). An op is found in a text by its name (a tree's folders break ties between modules), cut
out dedented with the text's aliases written out (a local dump prints every attribute and type in full), and put
into a whole dump indented to its place and named by that dump's aliases."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from ... import splice
from ...dump import split_lines
from .entries import Entry
from .ops import Ops, ops_of, single_op, unquoted

_ALIAS = re.compile(r"^(?P<name>[#!][A-Za-z_][\w.$-]*) = ")  # an attribute or type alias definition


def grammar(entries: Sequence[Entry], shared: set[tuple[int, int]]) -> splice.Grammar:
    """The splice's grammar for these dumps (dump k is entries[k]): each local dump's op is found by what it names.
    An op a whole dump does not hold cannot be put into it (MLIR prints no op outside its parent). `shared`
    gathers (dump, hash of the text) of each local dump not found in a text because several ops there carry
    its name (the notes say so; asked again later, the text would be parsed again)."""
    key_of = cache(lambda at: _op_key(entries[at]))  # a tree's is read from its file: once

    def find(text: str, key: str, at: int) -> tuple[int, int] | None:
        ops, entry, own = ops_of(text), entries[at], key_of(at)
        span = _span(ops, entry, own)
        if span is None and _defined_more_than_once(ops, entry, own):
            shared.add((at, hash(text)))
        return span

    return splice.Grammar(
        find=find,
        cut=_cut,
        place=_place,
        finish=_finish,
        adds=False,
    )


def _defined_more_than_once(source: Ops, entry: Entry, key: str | None) -> bool:
    """Whether several ops of an enclosing dump carry the local entry's name (its key `key`) and its folder cannot
    choose: a stream's local dump names only `@f`, and `module @a` and `module @b` may both define one."""
    if key is None:
        return False
    name = key.rsplit("::", 1)[-1]
    return len(source.named(name)) > 1 and source.locate(name, entry.op_id) is None


def _op_key(entry: Entry) -> str | None:
    """The key of the op a local entry dumps: a stream's is its op_id, a tree's is read from its file."""
    return single_op(entry.text()) if entry.path is not None else entry.op_id


def _span(source: Ops, entry: Entry, key: str | None) -> tuple[int, int] | None:
    """Where the local entry's op (its key `key`) stands in a text: (first, stop) lines, or None."""
    if key is None:
        return None
    name = key.rsplit("::", 1)[-1]
    region = source.locate(name, entry.op_id)
    if region is None or (entry.where and not entry.where.endswith(f"_{unquoted(name).removeprefix('@')}")):
        return None
    return region.start, region.end


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" "))]


def _cut(lines: list[str], first: int, stop: int) -> str:
    """The op as it stands in a text, dedented: the text its local dump is diffed against."""
    indent = len(_indent(lines[first]))
    body = [line[indent:] if not line[:indent].strip() else line.lstrip(" ") for line in lines[first:stop]]
    text = "".join(line + "\n" for line in body) + "\n"  # a dump ends with a blank line
    aliases = _aliases(lines)
    return _written_out(text, aliases) if aliases else text


def _place(lines: list[str], first: int, stop: int, text: str) -> list[str]:
    """A local dump (its final blank lines left out) indented to where its op stands in `lines`, its attributes
    and types named by the aliases `lines` defines."""
    indent = _indent(lines[first])
    aliasing = _aliasing(tuple(_aliases(lines).items()))
    own = split_lines(text)[0]
    while own and not own[-1].strip():  # a dump ends with a blank line
        own.pop()
    return [indent + aliasing(line) if line else line for line in own]


def _aliases(lines: list[str]) -> dict[str, str]:
    """The alias definitions before a text's top op: name -> what it stands for."""
    aliases = {}
    for line in lines:
        match = _ALIAS.match(line)
        if match is None:
            break
        aliases[match["name"]] = line[match.end() :]
    return aliases


def _written_out(text: str, aliases: dict[str, str]) -> str:
    names = "|".join(re.escape(name) for name in sorted(aliases, key=len, reverse=True))
    used = re.compile(f"(?:{names})" + r"(?![\w.$-])")  # a whole name: `#sparse` is not in `#sparse_tensor`
    for _ in range(len(aliases)):  # an alias may be defined with another
        text, count = used.subn(lambda m: aliases[m.group()], text)
        if not count:
            break
    return text


@lru_cache(maxsize=4)  # the aliases of the whole dump local dumps are put into, asked once per dump put in
def _aliasing(definitions: tuple[tuple[str, str], ...]):
    """line -> the line with what an alias stands for, written out in full, put back as the alias's name: a
    local dump put into a whole one reads as the whole one prints it (the aliases it defines)."""
    if not definitions:
        return lambda line: line
    aliases = dict(definitions)
    full = {name: _written_out(value, aliases) for name, value in aliases.items()}
    by_value = {value: name for name, value in full.items()}
    values = re.compile("|".join(re.escape(value) for value in sorted(by_value, key=len, reverse=True)))
    return lambda line: values.sub(lambda m: by_value[m.group()], line)


def _finish(lines: list[str], like: str | None) -> list[str]:
    """The spliced whole dump named by the aliases of `like`, the whole dump it is diffed against, as it prints
    them (a local pass may have made an attribute the whole dump before had no alias for, and MLIR numbers
    aliases afresh each time it prints); without the aliases nothing uses any more (MLIR prints only those)."""
    theirs = _aliases(split_lines(like)[0]) if like is not None else {}
    if theirs:
        ours = _aliases(lines)
        body = "\n".join(lines[len(ours) :])
        body = _aliasing(tuple(theirs.items()))(_written_out(body, ours) if ours else body)
        lines = [*(f"{name} = {value}" for name, value in theirs.items()), *body.split("\n")]
    return _used_aliases(lines)


def _used_aliases(lines: list[str]) -> list[str]:
    """The lines without the alias definitions (`#map = ...` before the top op) that nothing uses any more."""
    definitions = []
    for row, line in enumerate(lines):
        match = _ALIAS.match(line)
        if match is None:
            break
        definitions.append((row, match["name"]))
    text = "\n".join(lines)
    unused = {row for row, name in definitions if len(re.findall(re.escape(name) + r"(?![\w.$-])", text)) < 2}
    return [line for row, line in enumerate(lines) if row not in unused]
