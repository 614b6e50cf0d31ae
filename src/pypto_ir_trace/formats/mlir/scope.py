"""Local-scope dumps (no --mlir-print-ir-module-scope) hold only their op: how ops lie in MLIR texts, for the
splice (splice.Grammar). An op is found in a text by its name (a tree's folders break ties between modules), cut
out dedented with the text's aliases written out (a local dump prints every attribute and type in full), and put
into a whole dump indented to its place and named by that dump's aliases.

An op a local dump does not name apart from others (IREE's headers name no op: `util.initializer` has no symbol,
the module inside an executable variant prints as `module` like the top one, every variant of a target carries
the same symbol) is told by its text: of the ops of its kind in the program as it stands, the one whose symbols
(`@__device_0`: the globals it stores, the functions it calls) and then whose lines differ least from the dump's
(the pass changed part of that op and nothing of the others; a pass that rewrites every line, scf to cf, keeps
the symbols), the first of equals;
when that is the top-level module, the dump is of the whole program. Such an op is keyed by its kind and its
place among the ops of that kind (`util.initializer#2`), found again by that place."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache

from ... import splice
from ...dump import joined_lines, split_lines
from .entries import Entry
from .ops import Ops, end_of, lines_of, of_top_kind, openers_of, ops_of, signature, single_op, spans_of, unquoted

_ALIAS = re.compile(r"^(?P<name>[#!][A-Za-z_][\w.$-]*) = ")  # an attribute or type alias definition
_ELIDED = re.compile(r"#[A-Za-z_][\w$-]*\.[\w.$-]+(?P<body><.*>)")  # a dialect attribute: its body prints alone
_SYMBOL = re.compile(r'@(?:[\w.$-]+|"[^"]*")')  # a symbol reference (`@__device_0`, `@"a b"`)
_NAME_ENDS = r"(?![\w.$-])"  # after an alias's name: a whole name, `#map` is not in `#map1`
# the alias definitions (and blank lines) a dump's text opens with, before its op (matched there: searched for
# through the text, the pattern is tried at each of its characters)
_ALIAS_LINES = re.compile(f"(?:{_ALIAS.pattern.removeprefix('^')}.*\n|[ \t]*\n)*")


def grammar(entries: Sequence[Entry], shared: set[tuple[int, int]]) -> splice.Grammar:
    """The splice's grammar for these dumps (dump k is entries[k]): each local dump's op is found by what it names.
    An op a whole dump does not hold cannot be put into it (MLIR prints no op outside its parent). `shared`
    gathers (dump, hash of the text) of each local dump not found in a text because several ops there carry
    its name (the notes say so; asked again later, the text would be parsed again)."""
    key_of = cache(lambda at: _op_key(entries[at]))  # a tree's is read from its file: once

    @lru_cache(maxsize=4)  # a dump's op is looked for in the same text twice: may it be put in, then put in
    def find(text: str, key: str, at: int) -> tuple[int, int] | None:
        if entries[at].told:
            return _placed(text, key)
        entry, own = entries[at], key_of(at)
        if own is not None and "::" not in own and _in_its_folder(entry, own):
            span = _laid_out(text, _symbol_of(own), entry) or _declared(text, _symbol_of(own), entry)
            if span is not None:
                return span
        ops = ops_of(text)
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
        mentions=_mentions,
        tell=_tell,
    )


_PLACE = "#"  # between a told op's kind and its place among the ops of that kind


def _told(key: str) -> tuple[str, int] | None:
    """A told op's key as its kind and place (`util.initializer#2`), None for an op keyed by its name."""
    kind, mark, place = key.rpartition(_PLACE)
    return (kind, int(place)) if mark and place.isdigit() else None


def _mentions(text: str, key: str) -> bool:
    """Whether a text may hold the op of this key: it names the op's symbol, or its kind for a told op."""
    told = _told(key)
    word = told[0].split(" ", 1)[0] if told else unquoted(key.rsplit("::", 1)[-1])
    return word in text


def _tell(program: str | None, kind: str, text: str) -> str | None:
    """The key of the op of this kind in the program that a dump of it prints: the one whose symbols, then lines,
    differ least from the dump's; None when that is the top-level op (a dump of the whole program), or, with no
    program yet, when the dump's op is of the kind the top-level op is."""
    if program is None:
        return None if of_top_kind(kind) else f"{kind}{_PLACE}1"
    spans = spans_of(program, kind)
    if not spans:
        return f"{kind}{_PLACE}0"  # none now: found nowhere, so diffed against its own last dump
    lines = lines_of(program)
    if len(spans) == 1:
        return None if _is_top(lines, *spans[0]) else f"{kind}{_PLACE}1"
    past_aliases = _ALIAS_LINES.match(text)
    assert past_aliases is not None  # it matches no line at all too
    own_symbols = _symbols_in(text[past_aliases.end() :])
    by_symbols = [_differing(own_symbols, _symbols_in("\n".join(lines[a:b]))) for a, b in spans]
    closest = [k for k, differ in enumerate(by_symbols) if differ == min(by_symbols)]
    if len(closest) > 1:  # the lines decide between those
        own = _kept_lines(split_lines(text)[0])
        by_lines = [_differing(own, Counter(line.strip() for line in lines[slice(*spans[k])])) for k in closest]
        closest = [closest[by_lines.index(min(by_lines))]]
    best = closest[0]
    return None if _is_top(lines, *spans[best]) else f"{kind}{_PLACE}{best + 1}"


def _is_top(lines: list[str], first: int, stop: int) -> bool:
    """Whether the op at these lines is the top-level op: at column 0, nothing after it."""
    return not lines[first].startswith(" ") and not any(line.strip() for line in lines[stop:])


def _kept_lines(lines: list[str]) -> Counter:
    """A dump's lines as an op's are compared: stripped, without the alias definitions before its op."""
    return Counter(line.strip() for line in lines if line.strip() and not _ALIAS.match(line))


@lru_cache(maxsize=64)  # the program's ops of a kind, asked once per dump of that kind: most are as they were
def _symbols_in(text: str) -> Counter:
    """The symbols a text names, each as often as named (not to be changed: it is cached)."""
    return Counter(_SYMBOL.findall(text))


def _differing(own: Counter, other: Counter) -> int:
    """How many items (lines, symbols) are in one of the two and not the other (read by `get`: a Counter's
    intersection, or its own lookup of a missing item, runs in Python)."""
    return sum(abs(own.get(item, 0) - other.get(item, 0)) for item in own.keys() | other.keys())


def described(key: str) -> str:
    """What the Before pane calls an op by its key: a told op by its kind and place (`util.initializer 2`)."""
    told = _told(key)
    return f"{told[0]} {told[1]}" if told else key


def _placed(text: str, key: str) -> tuple[int, int] | None:
    """Where a told op stands in a text: the op of its kind at its place."""
    told = _told(key)
    if told is None:
        return None
    spans = spans_of(text, told[0])
    return spans[told[1] - 1] if 0 < told[1] <= len(spans) else None


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
    if region is None and not entry.where and not source.named(name):
        return _laid_out(source.text, _symbol_of(name))
    if region is None or not _in_its_folder(entry, name):
        return None
    # the printer's layout says where the op ends: a region of a parse that went wrong can run past its closers
    return region.start, end_of(source.lines, region.start) or region.end


# A module inside another dialect's op prints its dialect (`builtin.module`); printed alone, as the top op, it does not
_NESTED_MODULE = "builtin."


def _in_its_folder(entry: Entry, name: str) -> bool:
    """Whether an op of this name may be the entry's: a tree's op folder ends with the op's symbol."""
    return not entry.where or entry.where.endswith(f"_{unquoted(name).removeprefix('@')}")


def _symbol_of(key: str) -> str:
    """The symbol an op's key names (a container's key has no @: `abs_dispatch_0`)."""
    return "@" + unquoted(key.rsplit("::", 1)[-1]).removeprefix("@")


def _laid_out(text: str, symbol: str, entry: Entry | None = None) -> tuple[int, int] | None:
    """Where the one op of this symbol that opens a region stands by the printer's layout alone: the line that
    opens it, to the line that closes it; several such ops (an executable's export and its function): the one
    of the local dump's own signature; None when there is not exactly one. A local dump is looked for so first
    (a whole parse per text: IREE mlp's splice spent 1.3 s parsing), and where the parse found no region of it
    (tree-sitter-mlir loses IREE's `util.func public @f(...) -> !hal.buffer_view attributes {iree.abi.stub}`)."""
    lines = lines_of(text)
    found = [(row, opened) for row, opened in _spelled(text, symbol) if lines[row].rstrip().endswith("{")]
    if len(found) > 1 and entry is not None:
        wanted = _own_op(entry)[0]
        found = [(row, opened) for row, opened in found if opened == wanted] or _of_its_kind(found, wanted)
    if len(found) != 1:
        return None
    stop = end_of(lines, found[0][0])
    return None if stop is None else (found[0][0], stop)


def _of_its_kind(found: list[tuple[int, str]], wanted: str) -> list[tuple[int, str]]:
    """The openers of an op of the wanted one's kind in another dialect (`func.func @f` for a dump of `llvm.func @f`:
    a pass that lowers a function prints it in its new dialect, where the text before it holds the old one)."""
    kind = _kind_of(wanted)
    return [(row, opened) for row, opened in found if _kind_of(opened) == kind]


def _kind_of(signature: str) -> str:
    """An op's kind across dialects: its name's last word (`func` for `llvm.func`, `func.func`, `util.func`)."""
    return signature.split(" ", 1)[0].rpartition(".")[2]


def _declared(text: str, symbol: str, entry: Entry) -> tuple[int, int] | None:
    """Where the op of a local dump of one line (a declaration, `func.func private @g(i32)`) stands in a text: the
    one line of the same signature; None when the dump is more than one line, or there is not one such line."""
    wanted, one_line = _own_op(entry)
    if not one_line:
        return None
    found = [row for row, opened in _spelled(text, symbol) if opened == wanted]
    return (found[0], found[0] + 1) if len(found) == 1 else None


def _own_op(entry: Entry) -> tuple[str, bool]:
    """The signature of the op a local dump prints (its first line past the aliases), and whether that is its only
    line."""
    lines = io.StringIO(entry.body.read(), newline="\n")  # read lazily: a codegen function's holds thousands
    own = (line for line in lines if line.strip() and not _ALIAS.match(line))
    first, second = next(own, None), next(own, None)
    return (signature(first.lstrip(" ")) if first else ""), first is not None and second is None


def _spelled(text: str, symbol: str) -> list[tuple[int, str]]:
    """openers_of the symbol as the IR spells it: quoted when it is not a bare identifier (`@"_insert_-9223"`)."""
    openers = openers_of(text)
    return openers.get(symbol) or openers.get(f'@"{symbol[1:]}"', [])


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" "))]


def _cut(lines: list[str], first: int, stop: int) -> str:
    """The op as it stands in a text, dedented: the text its local dump is diffed against."""
    indent = len(_indent(lines[first]))
    body = [line[indent:] if not line[:indent].strip() else line.lstrip(" ") for line in lines[first:stop]]
    body[0] = body[0].removeprefix(_NESTED_MODULE)
    text = "".join(line + "\n" for line in body) + "\n"  # a dump ends with a blank line
    aliases = _aliases(lines)
    return _written_out(text, aliases) if aliases else text


def _place(lines: list[str], first: int, stop: int, text: str) -> list[str]:
    """A local dump (its final blank lines left out) indented to where its op stands in `lines`, its attributes
    and types named by the aliases `lines` defines."""
    if not text.strip():
        return []
    indent = _indent(lines[first])
    aliasing = _aliasing(tuple(_aliases(lines).items()))
    own = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
    end = own.find("\n", len(own.rstrip()))  # a dump ends with a blank line: up to its last line that is not
    own = own[:end] if end >= 0 else own
    if lines[first].lstrip(" ").startswith(_NESTED_MODULE) and not own.startswith(_NESTED_MODULE):
        own = _NESTED_MODULE + own
    return [indent + line if line else line for line in aliasing(own).split("\n")]


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
    used = re.compile(f"(?:{names}){_NAME_ENDS}")
    for _ in range(len(aliases)):  # an alias may be defined with another
        text, count = used.subn(lambda m: aliases[m.group()], text)
        if not count:
            break
    return text


@lru_cache(maxsize=4)  # the aliases of the whole dump local dumps are put into, asked once per dump put in
def _aliasing(definitions: tuple[tuple[str, str], ...]):
    """text -> the text with what an alias stands for, written out in full, put back as the alias's name: a
    local dump put into a whole one reads as the whole one prints it (the aliases it defines). An op whose format
    knows an attribute's dialect prints it alone without it (IREE's `target(<"llvm-cpu", ...>)` for
    `#hal.executable.target<"llvm-cpu", ...>`), and by its alias in the whole module (`target(#executable_target)`).
    Each value is looked for alone, longest first, so that one that holds another is named whole (by `in` and
    `replace`: a pattern of them all cost 0.8 s over IREE mlp's local dumps, whose codegen functions hold none, and
    a pattern of those held cost more to compile than its search saved)."""
    if not definitions:
        return lambda text: text
    aliases = dict(definitions)
    full = {name: _written_out(value, aliases) for name, value in aliases.items()}
    by_value = {value: name for name, value in full.items()}
    for value, name in list(by_value.items()):
        if (short := _ELIDED.fullmatch(value)) is not None:
            by_value.setdefault(f"({short['body']})", f"({name})")
    longest_first = sorted(by_value, key=len, reverse=True)

    def named(text: str) -> str:
        for value in longest_first:
            if value in text:
                text = text.replace(value, by_value[value])
        return text

    return named


def _finish(lines: list[str], like: str | None) -> str:
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


def _used_twice(name: str, text: str) -> bool:
    """Whether an alias's name is in the text twice, its definition and a use: each looked for alone, up to its
    second time, which comes soon where it is used at all (a program's aliases, once per dump shown whole)."""
    found = _whole_name(name).finditer(text)
    return next(found, None) is not None and next(found, None) is not None


@cache
def _whole_name(name: str) -> re.Pattern:
    return re.compile(re.escape(name) + _NAME_ENDS)


def _used_aliases(lines: list[str]) -> str:
    """The text of the lines without the alias definitions (`#map = ...` before the top op) that nothing uses any
    more."""
    definitions = []
    for row, line in enumerate(lines):
        match = _ALIAS.match(line)
        if match is None:
            break
        definitions.append((row, match["name"]))
    text = joined_lines(lines)
    unused = {row for row, name in definitions if not _used_twice(name, text)}
    if not unused:
        return text
    # the definitions open the text: only they are joined again, the rest is sliced off the text as it is
    head = len(definitions) + sum(len(line) for line in lines[: len(definitions)])
    return joined_lines([line for row, line in enumerate(lines[: len(definitions)]) if row not in unused]) + text[head:]
