"""Local-scope dumps (no --mlir-print-ir-module-scope) hold only their op: the op's text cut out of an
enclosing dump, and a whole dump with local dumps put in place of their ops (the IR the next pass received)."""

from __future__ import annotations

import bisect
import re

from .entries import Entry
from .ops import Ops, ops_of, single_op

_ALIAS = re.compile(r"^(?P<name>[#!][A-Za-z_][\w.$-]*) = ")  # an attribute or type alias definition


def defined_more_than_once(source: Ops, entry: Entry) -> bool:
    """Whether several ops of an enclosing dump carry the local entry's name and its folder cannot choose:
    a stream's local dump names only `@f`, and `module @a` and `module @b` may both define one."""
    key = _op_key(entry)
    if key is None:
        return False
    name = key.rsplit("::", 1)[-1]
    return len(source.named(name)) > 1 and source.locate(name, entry.op_id) is None


def _op_key(entry: Entry) -> str | None:
    """The key of the op a local entry dumps: a stream's is its op_id, a tree's is read from its file."""
    return single_op(entry.text()) if entry.path is not None else entry.op_id


def _region_in(source: Ops, entry: Entry):
    """Where the local entry's op stands in an enclosing dump, or None."""
    key = _op_key(entry)
    if key is None:
        return None
    name = key.rsplit("::", 1)[-1]
    region = source.locate(name, entry.op_id)
    if region is None or (entry.where and not entry.where.endswith(f"_{name.removeprefix('@')}")):
        return None
    return region


def cut(source: Ops, entry: Entry) -> str | None:
    """The entry's op as it stands in an enclosing dump, dedented: the text its first local dump is
    diffed against (without a header line: a snapshot's text has none)."""
    region = _region_in(source, entry)
    if region is None:
        return None
    lines = source.lines
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
    names = "|".join(re.escape(name) for name in sorted(aliases, key=len, reverse=True))
    used = re.compile(f"(?:{names})" + r"(?![\w.$-])")  # a whole name: `#sparse` is not in `#sparse_tensor`
    for _ in range(len(aliases)):  # an alias may be defined with another
        text, count = used.subn(lambda m: aliases[m.group()], text)
        if not count:
            break
    return text


class Splice:
    """A whole dump (header line first) with local dumps put in place of their ops. The ops are found in the
    whole dump as it was and the text is built once, when asked: N functions each dumped locally cost N
    lookups and one build of the module, not N builds (quadratic in N)."""

    def __init__(self, whole: str) -> None:
        self._base = ops_of(whole)
        self._starts: list[int] = []  # the starts of the regions put in, sorted (they never overlap)
        self._put: dict[int, tuple] = {}  # start -> (the op's region in the base, its latest local dump)
        self.count = 0  # local dumps put in

    def put(self, entry: Entry) -> bool:
        """Put the entry's op in place of the one in the whole dump; False when it cannot be found there."""
        region = _region_in(self._base, entry)
        if region is not None and self._overlaps(region):
            # An op inside (or around) one put in already: its text is that op's local dump now, so go on
            # from the text built so far (rare: nested ops dumped locally one after the other).
            self._base, self._starts, self._put = ops_of(self.text()), [], {}
            region = _region_in(self._base, entry)
        if region is None:
            return False
        if region.start not in self._put:
            bisect.insort(self._starts, region.start)
        self._put[region.start] = (region, entry)
        self.count += 1
        return True

    def _overlaps(self, region) -> bool:
        """Whether region overlaps an op put in before, other than the same op again."""
        at = bisect.bisect_left(self._starts, region.start)
        if at < len(self._starts) and self._starts[at] == region.start:
            return self._put[region.start][0].end != region.end
        before = at > 0 and self._put[self._starts[at - 1]][0].end > region.start
        after = at < len(self._starts) and self._starts[at] < region.end
        return before or after

    def text(self) -> str:
        lines, kept, at = self._base.lines, [], 0
        for start in self._starts:
            region, entry = self._put[start]
            kept += lines[at:start]
            kept += _indented(lines, region, entry)
            at = region.end
        kept += lines[at:]
        return "".join(line + "\n" for line in _used_aliases(kept))


def _indented(lines: list[str], region, entry: Entry) -> list[str]:
    """The entry's dump (its header line and final blank line left out), indented to where its op stands."""
    indent = lines[region.def_line][: len(lines[region.def_line]) - len(lines[region.def_line].lstrip(" "))]
    own = ops_of(entry.text()).lines[1:]
    while own and not own[-1].strip():  # a dump ends with a blank line
        own = own[:-1]
    return [indent + line if line else line for line in own]


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
