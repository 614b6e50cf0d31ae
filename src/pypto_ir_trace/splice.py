"""The whole program from dumps of one unit (format-neutral): what each dump is diffed against.

A compiler that prints the IR after every pass prints either the whole program (an MLIR or LLVM module) or
only the unit the pass ran on: one function, several functions (an LLVM call-graph SCC), or a fragment of
one function (an LLVM loop). A unit dump diffed against the dump before it would show another unit's text as
deleted and its own as inserted; a whole dump diffed against the last whole one would show every unit pass
since as its own. So the splice keeps the program as it stands after each dump, unit by unit, and gives each
dump its base, the text its pass received:
- a whole dump: the last whole dump with the units printed since put in their places (units it did not hold
  after its last one); no unit printed since: that dump itself;
- a unit dump: its units as they stand, in its order. When the last dump of exactly these units printed them
  and nothing changed them since, that dump itself; else each unit's latest text (its own last dump, cut out
  of a later whole dump, or with fragments put in), joined as the format prints several;
- a fragment: the previous dump of the same fragment when nothing else changed its unit since; else the
  fragment cut out of its unit as it stands;
- what was never printed (a unit no earlier dump holds): the empty input;
- an After dump that answers a Before dump (the same pass on the same unit, --print-before-all) is diffed
  against that Before dump, which printed exactly what the pass received.
Every dump then updates the program: a whole dump replaces it, a unit dump its units, a fragment is put into
its unit (when the format cannot put it in, the unit keeps its text and the next dump of it shows the
fragment's changes too: `lost` counts those).

The format says what each dump is (`Printed`) and how units lie in a text (`Grammar`); nothing here knows a
format or a language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .dump import split_lines

WHOLE, UNITS, FRAGMENT = "whole", "units", "fragment"
INPUT = -1  # a base that is the pipeline's empty input


@dataclass(frozen=True)
class Printed:
    """One dump, as the format read it."""

    kind: str  # WHOLE, UNITS or FRAGMENT
    text: Callable[[], str]  # its text without its header line, read when the splice needs it
    unit: str = ""  # FRAGMENT: the unit it is a part of
    fresh: bool = False  # FRAGMENT: the first dump of another fragment of that unit (the next loop)
    step: tuple[str, ...] = ()  # what pairs a Before dump with its After dump (pass and unit)
    before: bool = False  # a Before dump: it opens the step


@dataclass(frozen=True)
class Grammar:
    """How the format's units lie in a text. Only `units` is required: units are then whole lines, cut and put
    in as they are, and several are printed one after the other."""

    # text -> (key, first line, one past the last line) of each unit it holds, in text order
    units: Callable[[str], Sequence[tuple[str, int, int]]]
    # (the text's lines, first, stop) -> the unit's own text, as a dump of it alone prints it
    cut: Callable[[list[str], int, int], str] = lambda lines, first, stop: "".join(
        line + "\n" for line in lines[first:stop]
    )
    # (the text's lines, first, stop, a unit's text) -> its lines as they stand in that place of the program
    place: Callable[[list[str], int, int, str], list[str]] = lambda lines, first, stop, text: split_lines(text)[0]
    join: Callable[[Sequence[str]], str] = "".join  # the units' texts as a dump of several prints them
    finish: Callable[[list[str]], list[str]] = lambda lines: lines  # the spliced program's lines, tidied
    # (unit text, fragment text) -> the fragment's text as it stands in the unit, None: not found there
    fragment_cut: Callable[[str, str], str | None] = lambda unit, fragment: None
    # (unit text, fragment text) -> the unit with the fragment put in, None: it cannot be put in
    fragment_put: Callable[[str, str], str | None] = lambda unit, fragment: None


@dataclass(frozen=True)
class Base:
    """What a dump is diffed against: an earlier dump (its position, INPUT: the empty input) or a text."""

    dump: int | None  # None: `text`
    text: str | None = None
    name: str = ""  # what `text` is, for the Before pane


@dataclass
class Found:
    """Each dump's base, and what the notes must say."""

    bases: list[Base] = field(default_factory=list)
    unseen: int = 0  # unit dumps (or fragments) of units no earlier dump printed: shown against the empty input
    lost: int = 0  # fragments that could not be put into their unit
    uncut: int = 0  # fragments not found in their unit: shown against the empty input
    first_whole: int | None = None  # the first whole dump when unit dumps came before it: never received whole


class _Program:
    """The program as it stands: the last whole dump's lines and where each unit lies in them, and the latest
    text of each unit printed since (or ever, without a whole dump)."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.lines: list[str] | None = None  # the last whole dump's lines
        self.spans: dict[str, tuple[int, int]] = {}  # unit -> its lines there
        self.texts: dict[str, str] = {}  # unit -> its latest text, when printed after the last whole dump
        self.printed: dict[str, tuple[int, tuple[str, ...]]] = {}  # unit -> (the dump, its units) that printed it
        self.changed = False  # a unit was printed since the last whole dump

    def whole(self, text: str, at: int) -> None:
        self.lines = split_lines(text)[0]
        self.spans = {key: (first, stop) for key, first, stop in self.grammar.units(text)}
        self.texts, self.changed = {}, False
        self.printed = {key: (at, ()) for key in self.spans}

    def text_of(self, key: str) -> str | None:
        if key in self.texts:
            return self.texts[key]
        if self.lines is not None and key in self.spans:
            return self.grammar.cut(self.lines, *self.spans[key])
        return None

    def set(self, key: str, text: str, printed: tuple[int, tuple[str, ...]] | None) -> None:
        self.texts[key] = text
        self.changed = True
        if printed is None:
            self.printed.pop(key, None)
        else:
            self.printed[key] = printed

    def rebuilt(self) -> str:
        """The last whole dump with every unit printed since put in its place; new units after the others."""
        assert self.lines is not None
        lines, kept, at = self.lines, [], 0
        placed = sorted((self.spans[key], key) for key in self.texts if key in self.spans)
        for (first, stop), key in placed:
            kept += lines[at:first]
            kept += self.grammar.place(lines, first, stop, self.texts[key])
            at = stop
        tail = max((stop for _, stop in self.spans.values()), default=len(lines))
        kept += lines[at:tail]
        for key in self.texts:
            if key not in self.spans:
                kept += split_lines(self.texts[key])[0]
        kept += lines[max(at, tail) :]
        return "".join(line + "\n" for line in self.grammar.finish(kept))


def bases(printed: Iterable[Printed], grammar: Grammar, describe: Callable[[int], str]) -> Found:
    """Each dump's base (the module docstring's rules), in one pass over the dumps; `describe(k)` names dump k
    in the Before pane ("3 SROAPass")."""
    found = Found()
    program = _Program(grammar)
    last_whole: int | None = None
    fragment_of: dict[str, int] = {}  # unit -> its last fragment dump, while nothing else changed the unit
    open_steps: dict[tuple[str, ...], int] = {}  # a Before dump's step -> that dump
    for at, dump in enumerate(printed):
        answered = open_steps.pop(dump.step, None) if dump.step and not dump.before else None
        if dump.kind == WHOLE:
            base = _whole_base(program, last_whole, describe, at, found)
            program.whole(dump.text(), at)
            last_whole = at
            fragment_of = {}
        elif dump.kind == UNITS:
            base, keys = _units_base(program, dump, at, describe, found)
            for key in keys:  # its fragments' chains end: the unit's text is this dump's now
                fragment_of.pop(key, None)
        else:
            base = _fragment_base(program, dump, fragment_of, describe, found)
            fragment_of[dump.unit] = at
        if answered is not None:
            base = Base(answered)
        if dump.before and dump.step:
            open_steps[dump.step] = at
        found.bases.append(base)
    return found


def _whole_base(program: _Program, last_whole: int | None, describe, at: int, found: Found) -> Base:
    if program.lines is not None and program.changed:
        return Base(None, program.rebuilt(), f"{describe(last_whole or 0)} with the unit dumps after it put in")
    if last_whole is not None:
        return Base(last_whole)
    if program.texts and found.first_whole is None:
        found.first_whole = at
    return Base(INPUT)


def _units_base(program: _Program, dump: Printed, at: int, describe, found: Found) -> tuple[Base, tuple[str, ...]]:
    text = dump.text()
    lines = split_lines(text)[0]
    units = program.grammar.units(text)
    keys = tuple(key for key, _, _ in units)
    origins = {program.printed.get(key) for key in keys}
    known = [program.text_of(key) for key in keys]
    if len(origins) == 1 and (origin := origins.pop()) is not None and origin[1] == keys and keys:
        base = Base(origin[0])
    elif not any(part is not None for part in known):
        found.unseen += bool(keys)
        base = Base(INPUT)
    else:
        names = ", ".join(key for key, part in zip(keys, known) if part is not None)
        whence = f" (as of {describe(program.printed[keys[0]][0])})" if keys[0] in program.printed else ""
        joined = program.grammar.join([part for part in known if part is not None])
        base = Base(None, joined, f"{names}{whence}")
    for key, first, stop in units:
        program.set(key, program.grammar.cut(lines, first, stop), (at, keys))
    return base, keys


def _fragment_base(program: _Program, dump: Printed, fragment_of: dict[str, int], describe, found: Found) -> Base:
    text = dump.text()
    previous = fragment_of.get(dump.unit)
    unit = program.text_of(dump.unit)
    if previous is not None and not dump.fresh:
        base = Base(previous)
    elif unit is None:
        found.unseen += 1
        base = Base(INPUT)
    else:
        cut = program.grammar.fragment_cut(unit, text)
        if cut is None:
            found.uncut += 1
            base = Base(INPUT)
        else:
            whence = f" as of {describe(program.printed[dump.unit][0])}" if dump.unit in program.printed else ""
            base = Base(None, cut, f"its part of {dump.unit}{whence}")
    if unit is not None:
        put = program.grammar.fragment_put(unit, text)
        if put is None:
            found.lost += 1
        else:
            program.set(dump.unit, put, None)
    return base
