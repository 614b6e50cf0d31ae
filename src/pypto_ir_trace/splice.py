"""The whole program from dumps of one unit (format-neutral): what each dump is diffed against.

A compiler that prints the IR after every pass prints either the whole program (an MLIR or LLVM module) or
only the unit the pass ran on: one function, several functions (an LLVM call-graph SCC), an op with the ops
inside it (MLIR's local scope: a function, a nested module), or a fragment of one function (an LLVM loop). A
unit dump diffed against the dump before it would show another unit's text as deleted and its own as inserted;
a whole dump diffed against the last whole one would show every unit pass since as its own. So the splice keeps
the program as it stands after each dump, unit by unit, and gives each dump its base, the text its pass received:
- a whole dump: the last whole dump with the units printed since put in their places; no unit printed since:
  that whole dump itself. A unit it cannot place (the whole dump does not hold it) is put after the others, or,
  where the format says it cannot be (`Grammar.adds`), the whole dump is diffed against the last whole one
  (`unspliced` counts those);
- a unit dump: its units as they stand, in its order. When the last dump of exactly these units printed them
  and nothing printed or changed them since, that dump itself; when a unit inside its one unit or around it was
  printed or changed since (an MLIR module after the functions in it, a function after a module pass), that
  unit cut out of the program as it stands; else each unit's latest text, taken from the
  newest of: its own last dump, the last whole dump, the last dump of a unit around it (`Printed.within`), or
  the fragments put in; joined as the format prints several. A unit the dump its text is taken from does not
  hold (`unfound`) is diffed against its own last dump, or the empty input;
- a fragment: the previous dump of the same fragment when nothing else changed its unit since; else the
  fragment cut out of its unit as it stands;
- what was never printed (a unit no earlier dump holds): the empty input (`unseen`);
- a dump that names only the kind of its unit (`Printed.told`: the program may hold several of that kind, or be
  one) is first told apart by its text, against the program as it stands (`Grammar.tell`), then read as the
  whole program or as that unit;
- an After dump that answers a Before dump (the same pass on the same unit, --print-before-all) is diffed
  against that Before dump, which printed exactly what the pass received.
Every dump then updates the program: a whole dump replaces it, a unit dump its units, a fragment is put into
its unit (when the format cannot put it in, the unit keeps its text and the next dump of it shows the
fragment's changes too: `lost` counts those). A unit put in around or inside one put in before (an MLIR module,
then a function in it) is put into the program as built so far.

With the whole view (`bases(..., whole_view=N)`: MLIR's local scope, whose units are few and whose program is
small beside the dumps), a unit dump is shown as the whole program as it stands once its units are put in
(`Found.shown`), and diffed against the dump before it, shown so too: local and module scope of one compile then
show, store and diff the same texts. A unit dump that cannot be put in (no whole dump yet, or a unit the program
does not hold, and the dumps after it until the next whole one) is shown as printed, against its base above; so
is every unit dump from the one whose program would take the texts shown past N characters (`Found.over`): many
small dumps of a large program would otherwise cost what the program costs, once per dump.

The format says what each dump is (`Printed`), how units lie in a text (`Grammar`) and what the Before pane
calls the texts the splice makes (`Names`); nothing here knows a format or a language.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from .dump import Source, Spool, joined_lines, split_lines

WHOLE, UNITS, FRAGMENT = "whole", "units", "fragment"
INPUT = -1  # a base that is the pipeline's empty input
# what the Before pane calls the empty text a unit no earlier dump holds is diffed against, where the pipeline's
# input was dumped (its snapshot 0 is then that text, not the empty input)
NOTHING = "(nothing: no earlier dump holds it)"


@dataclass(frozen=True)
class Printed:
    """One dump, as the format read it."""

    kind: str  # WHOLE, UNITS or FRAGMENT
    text: Callable[[], str]  # its text without its header line, read when the splice needs it
    # FRAGMENT: the unit it is a part of. UNITS: the one unit it prints, as the format names it (its text is that
    # unit; `Grammar.find` finds it in other texts); "": the units `Grammar.units` finds in its text
    unit: str = ""
    within: tuple[str, ...] = ()  # UNITS: the units around its unit (their dumps print it too), by their `unit`
    fresh: bool = False  # FRAGMENT: the first dump of another fragment of that unit (the next loop)
    # UNITS: `unit` names a kind the program may hold several of (MLIR's `util.initializer`), and the dump's text
    # tells which it is (`Grammar.tell`), or that it is the whole program
    told: bool = False
    step: tuple[str, ...] = ()  # what pairs a Before dump with its After dump (pass and unit)
    before: bool = False  # a Before dump: it opens the step


@dataclass(frozen=True)
class Grammar:
    """How the format's units lie in a text: found by key among `units`, or by `find` (a unit the format names).
    With either alone, units are whole lines, cut and put in as they are, several printed one after the other."""

    # text -> (key, first line, one past the last line) of each unit it holds, in text order
    units: Callable[[str], Sequence[tuple[str, int, int]]] = lambda text: ()
    # (a text, a unit's key, the position of the dump naming it) -> (first, stop) lines of that unit in the text,
    # None: not there. None: the unit of that key among `units(text)`
    find: Callable[[str, str, int], tuple[int, int] | None] | None = None
    # (the text's lines, first, stop) -> the unit's own text, as a dump of it alone prints it
    cut: Callable[[list[str], int, int], str] = lambda lines, first, stop: "".join(
        line + "\n" for line in lines[first:stop]
    )
    # (the text's lines, first, stop, a unit's text) -> its lines as they stand in that place of the program
    place: Callable[[list[str], int, int, str], list[str]] = lambda lines, first, stop, text: split_lines(text)[0]
    join: Callable[[Sequence[str]], str] = "".join  # the units' texts as a dump of several prints them
    # (the spliced program's lines, the text of the whole dump it is diffed against; None: none) -> its text, tidied
    finish: Callable[[list[str], str | None], str] = lambda lines, like: joined_lines(lines)
    adds: bool = True  # a unit the whole dump does not hold is put after its units; False: it cannot be put in
    # (a text, a unit's key) -> whether the text may hold that unit, a cheap test before units are looked for;
    # None: units never lie inside one another (LLVM's functions)
    mentions: Callable[[str, str], bool] | None = None
    # (the program as it stands, None before any whole dump; a told dump's `unit`; its text) -> the key of the unit
    # it prints, None: the whole program (`Printed.told`)
    tell: Callable[[str | None, str, str], str | None] = lambda program, kind, text: kind
    # (a text the splice made for a dump's base, that dump's text) -> the made text as the dump's print would have
    # spelled it (LLVM numbers its metadata afresh in each print); default: as made
    numbered: Callable[[str, str], str] = lambda made, dump: made
    # (unit text, fragment text) -> the fragment's text as it stands in the unit, None: not found there
    fragment_cut: Callable[[str, str], str | None] = lambda unit, fragment: None
    # (unit text, fragment text) -> the unit with the fragment put in, None: it cannot be put in
    fragment_put: Callable[[str, str], str | None] = lambda unit, fragment: None


@dataclass(frozen=True)
class Names:
    """What the Before pane calls a text the splice made, in the format's words; dumps are given by position."""

    spliced: Callable[[int, int], str]  # (the last whole dump, how many dumps were put into it) -> its name
    # (the units, the dump the first one's text is taken from; None: made by putting fragments in) -> their name
    units: Callable[[Sequence[str], int | None], str]
    fragment: Callable[[str, int | None], str]  # (its unit, the dump the unit's text is taken from) -> its name


def names(describe: Callable[[int], str]) -> Names:
    """The plain names, `describe(k)` naming dump k ("3 SROAPass")."""

    def since(source: int | None, words: str) -> str:
        return words.format(describe(source)) if source is not None else ""

    return Names(
        spliced=lambda whole, count: f"{describe(whole)} with the unit dumps after it put in",
        units=lambda keys, source: ", ".join(keys) + since(source, " (as of {})"),
        fragment=lambda unit, source: f"its part of {unit}" + since(source, " as of {}"),
    )


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
    unseen: list[int] = field(default_factory=list)  # dumps of units no earlier dump printed: against the empty input
    unfound: list[tuple[int, int]] = field(default_factory=list)  # (unit dump, the later dump its unit is not found in)
    unspliced: int = 0  # whole dumps after a unit that could not be put in: diffed against the last whole one
    lost: int = 0  # fragments that could not be put into their unit
    uncut: int = 0  # fragments not found in their unit: shown against the empty input
    first_whole: int | None = None  # the first whole dump when unit dumps came before it: never received whole
    told_whole: list[int] = field(default_factory=list)  # told dumps that print the whole program
    # the whole view: each dump's text as shown, the program as it stands after it (spooled); None: as printed
    shown: list[Source | None] = field(default_factory=list)
    over: int | None = None  # the first unit dump shown as printed because the whole view's texts reached its bound


class _Program:
    """The program as it stands: the last whole dump, the units put into it since, and each unit's latest text.

    The places of the units are found in the whole dump as it was and the program is built once, when a whole
    dump needs it: N units each printed alone cost N lookups and one build, not N builds (quadratic in N)."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.whole_at: int | None = None  # the last whole dump
        self._read: Callable[[], str] = str  # its text, read when needed
        self._whole: tuple[str, list[str]] | None = None  # its text and lines, once read
        self._base: tuple[str, list[str]] | None = None  # what units are put into, when not the whole dump itself
        self._spans: tuple[str, dict[str, tuple[int, int]]] | None = None  # a text's units by key (no `find`)
        self.placed: dict[int, tuple[int, str]] = {}  # first line in the base -> (stop, the unit's text there)
        self.starts: list[int] = []  # placed's first lines, sorted (they never overlap)
        self.added: dict[str, str] = {}  # units the base does not hold -> their text, put after its units
        self.put = 0  # dumps put in since the whole dump
        self.unplaced = False  # a unit since the whole dump could not be put in
        # unit -> (the dump that last printed or changed it, the units that dump printed; None: fragments put in,
        # its latest text)
        self.latest: dict[str, tuple[int, tuple[str, ...] | None, str]] = {}
        self.last: dict[str, int] = {}  # unit -> the last dump that printed it
        self._standing: tuple[tuple, str] | None = None  # as_it_stands, by the state it was built in
        self._made: dict[int, tuple[str, list[str], list[str]]] = {}  # first line -> (text, base lines, placed)

    def whole(self, read: Callable[[], str], at: int) -> None:
        self.whole_at, self._read, self._whole, self._base = at, read, None, None
        self.placed, self.starts, self.added, self.put, self.unplaced = {}, [], {}, 0, False
        self._made = {}

    def stands(self) -> bool:
        """Whether the program as it stands is known: a whole dump came, and every unit since was put in."""
        return self.whole_at is not None and not self.unplaced

    def holds(self, key: str, at: int) -> bool:
        """Whether the program stands and holds the unit, so that it can be put in."""
        return self.stands() and self.span(self._base_text()[0], key, at) is not None

    def _whole_text(self) -> tuple[str, list[str]]:
        if self._whole is None:
            text = self._read()
            self._whole = (text, split_lines(text)[0])
        return self._whole

    def _base_text(self) -> tuple[str, list[str]]:
        return self._base or self._whole_text()

    def as_it_stands(self) -> str:
        """The whole program now: the last whole dump with the units printed since put in (built once per state:
        a told dump and the base of the same dump both ask)."""
        state = (self.whole_at, self.put, self.unplaced)
        if self._standing is None or self._standing[0] != state:
            text = self.rebuilt(None) if self.put and not self.unplaced else self._whole_text()[0]
            self._standing = (state, text)
        return self._standing[1]

    def span(self, text: str, key: str, at: int) -> tuple[int, int] | None:
        """Where the unit of this key (printed by dump `at`) lies in a text; None: not there."""
        if self.grammar.find is not None:
            return self.grammar.find(text, key, at)
        if self._spans is None or self._spans[0] is not text:
            self._spans = (text, {unit: (first, stop) for unit, first, stop in self.grammar.units(text)})
        return self._spans[1].get(key)

    def printed_by(self, key: str, within: tuple[str, ...]) -> tuple[int, tuple[str, ...]] | None:
        """The dump that printed the unit and its units, when nothing printed or changed the unit since."""
        mine = self.latest.get(key)
        if mine is None or mine[1] is None or mine[0] < self._around(within)[0]:
            return None
        return mine[0], mine[1]

    def _around(self, within: tuple[str, ...]) -> tuple[int, str | None]:
        """The newest dump that printed a unit as part of more: the last whole dump or the last dump of a unit
        around it (that unit; None: the whole dump); (-1, None) when there is none."""
        newest: tuple[int, str | None] = (self.whole_at, None) if self.whole_at is not None else (-1, None)
        for unit in within:
            if self.last.get(unit, -1) > newest[0]:
                newest = (self.last[unit], unit)
        return newest

    def standing(self, key: str, at: int, text: str) -> str | None:
        """The unit cut out of the program as it stands when a unit inside it, or around it, was printed or changed
        since this one's own last dump (or since the whole dump, for a unit never printed alone): that text is then
        stale. None when none was, or units never nest. `at`, `text`: this dump's position and text, which names
        the units inside it. (A tree's folders say which units are around: `within`.)"""
        mentions = self.grammar.mentions
        if self.whole_at is None or mentions is None:
            return None
        mine = self.latest.get(key)
        own = mine[0] if mine is not None else self.whole_at
        since = [
            (other, when)
            for other, (when, _, other_text) in self.latest.items()
            if when > own and other != key and (mentions(text, other) or mentions(other_text, key))
        ]
        if not since:
            return None
        program = self.as_it_stands()
        this = self.span(program, key, at)
        if this is None:
            return None
        for other, when in since:
            span = self.span(program, other, when)
            if span is not None and span != this and _nested(span, this):
                return self.grammar.cut(split_lines(program)[0], *this)
        return None

    def text_of(self, key: str, at: int, found: Found, within: tuple[str, ...] = ()) -> tuple[str, int | None] | None:
        """The unit's latest text and the dump it is taken from (None: made by putting fragments in), or None."""
        mine = self.latest.get(key)
        newest, around = self._around(within)
        if mine is not None and mine[0] > newest:
            return mine[2], mine[0] if mine[1] is not None else None
        if newest < 0:
            return None
        if around is not None:
            text = self.latest[around][2]
            lines = split_lines(text)[0]
        else:
            text, lines = self._whole_text()
        span = self.span(text, key, at)
        if span is None:
            found.unfound.append((at, newest))
            return None
        return self.grammar.cut(lines, *span), newest

    def set(self, key: str, text: str, at: int, keys: tuple[str, ...] | None) -> None:
        """The unit's text is `text` now: printed by dump `at` with `keys`, or (keys None) made from fragments."""
        self.latest[key] = (at, keys, text)
        if keys is not None:
            self.last[key] = at
        if self.whole_at is None or self.unplaced:
            return
        span = self.span(self._base_text()[0], key, at)
        if span is not None and self._overlaps(span):
            # A unit around (or inside) one put in already: go on from the program built so far (rare: nested
            # units printed one after the other).
            built = self.rebuilt(None)
            self._base, self.placed, self.starts, self.added = (built, split_lines(built)[0]), {}, [], {}
            span = self.span(built, key, at)
        if span is None:
            if self.grammar.adds:
                self.added[key] = text
                self.put += 1
            else:
                self.unplaced = True
            return
        first, stop = span
        if first not in self.placed:
            bisect.insort(self.starts, first)
        self.placed[first] = (stop, text)
        self.put += 1

    def _place(self, lines: list[str], first: int, stop: int, part: str) -> list[str]:
        """The unit's lines in its place, made once per text put there: the program is rebuilt for every dump
        shown whole, each time with all the units put in since the whole dump, and a pass that left a unit as it
        was prints its text again (more than half of IREE mlp's local dumps put in)."""
        made = self._made.get(first)
        if made is None or made[1] is not lines or made[0] != part:
            made = self._made[first] = (part, lines, self.grammar.place(lines, first, stop, part))
        return made[2]

    def _overlaps(self, span: tuple[int, int]) -> bool:
        """Whether the span overlaps a unit put in before, other than the same unit again."""
        first, stop = span
        at = bisect.bisect_left(self.starts, first)
        if at < len(self.starts) and self.starts[at] == first:
            return self.placed[first][0] != stop
        before = at > 0 and self.placed[self.starts[at - 1]][0] > first
        after = at < len(self.starts) and self.starts[at] < stop
        return before or after

    def rebuilt(self, like: str | None) -> str:
        """The base with every unit printed since put in its place, new units after the others; `like`: the
        whole dump the result is diffed against."""
        text, lines = self._base_text()
        kept: list[str] = []
        at = 0
        for first in self.starts:
            stop, part = self.placed[first]
            kept += lines[at:first]
            kept += self._place(lines, first, stop, part)
            at = stop
        if self.added:
            tail = max((stop for _, _, stop in self.grammar.units(text)), default=len(lines))
            kept += lines[at:tail]
            for part in self.added.values():
                kept += split_lines(part)[0]
            at = max(at, tail)
        kept += lines[at:]
        return self.grammar.finish(kept, like)


def bases(printed: Iterable[Printed], grammar: Grammar, names: Names, whole_view: int = 0) -> Found:
    """Each dump's base (the module docstring's rules), in one pass over the dumps; with `whole_view`, each unit
    dump's text shown as the program as it stands (`Found.shown`) while those texts total at most that many
    characters."""
    found = Found()
    program = _Program(grammar)
    shown = _Shown(whole_view)
    standing: int | None = None  # the dump before this one, when it shows the program as it stands
    fragment_of: dict[str, int] = {}  # unit -> its last fragment dump, while nothing else changed the unit
    open_steps: dict[tuple[str, ...], int] = {}  # a Before dump's step -> that dump
    for at, dump in enumerate(printed):
        text: Source | None = None  # the text shown instead of the dump's (Found.shown)
        if dump.told:
            dump = _told(program, dump, at, found)
        answered = open_steps.pop(dump.step, None) if dump.step and not dump.before else None
        if dump.kind == WHOLE:
            base = Base(answered) if answered is not None else _whole_base(program, dump, at, names, found)
            if standing == at - 1 and base.text is not None and base.text == program.as_it_stands():
                base = Base(at - 1)  # the dump before it shows that text: a pass's output, whose lines are followed
            program.whole(dump.text, at)
            fragment_of = {}
            standing = at
        elif dump.kind == UNITS:
            units = _printed_units(program, dump)
            keys = tuple(key for key, _ in units)
            for key in keys:  # its fragments' chains end: the unit's text is this dump's now
                fragment_of.pop(key, None)
            if not shown.spent and standing == at - 1 and len(keys) == 1 and program.holds(keys[0], at):
                base, text = _shown_whole(program, units[0], at, shown, names, found)
                standing = at if text is not None else None
                if text is not None:
                    shown.printed[at] = keys
            else:
                # the units' texts before this dump changes them, where the rules may name a dump shown whole
                latest = {key: program.latest.get(key) for key in keys} if shown.printed else {}
                base, standing = _units(program, dump, units, at, answered, names, found), None
                base = shown.as_printed(base, latest, program.grammar, names)
        else:
            standing = None
            base = _fragment(program, dump, at, answered, fragment_of, names, found)
            fragment_of[dump.unit] = at
        if dump.before and dump.step:
            open_steps[dump.step] = at
        if base.text is not None:
            base = replace(base, text=grammar.numbered(base.text, dump.text()))
        found.bases.append(base)
        found.shown.append(text)
    return found


class _Shown:
    """The texts shown for unit dumps, spooled (dump.Spool), within their bound (`left`, characters); a text equal
    to the last one (a pass that changed nothing) is that one's object."""

    def __init__(self, bound: int) -> None:
        self.left, self.spent = bound, bound <= 0
        self._spool = Spool()
        self._last: tuple[str, Source] | None = None
        self.printed: dict[int, tuple[str, ...]] = {}  # unit dumps shown whole -> their units

    def of(self, text: str) -> Source | None:
        """The text to show, None once it would pass the bound (and every text after it)."""
        self.left -= len(text)
        if self.left < 0:
            self.spent = True
            return None
        if self._last is None or self._last[0] != text:
            self._last = (text, self._spool.put(text))
        return self._last[1]

    def as_printed(self, base: Base, latest: dict, grammar: Grammar, names: Names) -> Base:
        """The base of a dump shown as printed, past the bound: where the rules name a dump shown whole, that
        dump's units as it printed them (`latest`: each unit's last dump and text, `_Program.latest`), not the
        program it shows."""
        keys = self.printed.get(base.dump) if base.dump is not None else None
        if keys is None or any(latest.get(key) is None or latest[key][0] != base.dump for key in keys):
            return base
        return Base(None, grammar.join([latest[key][2] for key in keys]), names.units(keys, base.dump))


def _told(program: _Program, dump: Printed, at: int, found: Found) -> Printed:
    """A told dump as what it prints: the unit its text tells among those of its kind the program holds now (none
    yet: what its kind alone tells), or the whole program."""
    key = program.grammar.tell(program.as_it_stands() if program.whole_at is not None else None, dump.unit, dump.text())
    if key is None:
        found.told_whole.append(at)
        return replace(dump, kind=WHOLE)
    return replace(dump, unit=key)


def _whole_base(program: _Program, dump: Printed, at: int, names: Names, found: Found) -> Base:
    if program.whole_at is None:
        if program.last and found.first_whole is None:
            found.first_whole = at
        return Base(INPUT)
    if program.unplaced:
        found.unspliced += 1
    elif program.put:
        return Base(None, program.rebuilt(dump.text()), names.spliced(program.whole_at, program.put))
    return Base(program.whole_at)


def _printed_units(program: _Program, dump: Printed) -> list[tuple[str, str]]:
    """(key, text) of each unit a unit dump prints."""
    text = dump.text()
    if dump.unit:
        return [(dump.unit, text)]
    lines = split_lines(text)[0]
    return [(key, program.grammar.cut(lines, first, stop)) for key, first, stop in program.grammar.units(text)]


def _units(
    program: _Program,
    dump: Printed,
    units: list[tuple[str, str]],
    at: int,
    answered: int | None,
    names: Names,
    found: Found,
) -> Base:
    keys = tuple(key for key, _ in units)
    if answered is not None:
        base = Base(answered)
    elif len(keys) == 1 and not dump.within and (standing := program.standing(keys[0], at, dump.text())) is not None:
        base = Base(None, standing, names.units(keys, None))
    else:
        base = _units_base(program, keys, at, dump.within, names, found)
    for key, part in units:
        program.set(key, part, at, keys)
    return base


def _shown_whole(
    program: _Program, unit: tuple[str, str], at: int, shown: _Shown, names: Names, found: Found
) -> tuple[Base, Source | None]:
    """A dump of one unit the program holds, put in: shown as the program now, against the dump before it (which
    shows the program as it stood); past the whole view's bound, or when it could not be put in after all (a
    unit around one put in before, not found again in the program so built), shown as printed, against its unit
    cut out of the program as it stood."""
    key, part = unit
    before, own = program.as_it_stands(), program.last.get(key)
    program.set(key, part, at, (key,))
    text = shown.of(program.as_it_stands()) if program.stands() else None
    if text is not None:
        return Base(at - 1), text
    if shown.spent and found.over is None:
        found.over = at
    span = program.span(before, key, at)
    if span is None:
        return Base(own if own is not None else INPUT), None
    return Base(None, program.grammar.cut(split_lines(before)[0], *span), names.units((key,), at - 1)), None


def _nested(one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether one span of lines lies inside the other."""
    return (other[0] <= one[0] and one[1] <= other[1]) or (one[0] <= other[0] and other[1] <= one[1])


def _units_base(
    program: _Program, keys: tuple[str, ...], at: int, within: tuple[str, ...], names: Names, found: Found
) -> Base:
    origins = {program.printed_by(key, within) for key in keys}
    if len(origins) == 1 and (origin := origins.pop()) is not None and origin[1] == keys:
        return Base(origin[0])
    known = [(key, program.text_of(key, at, found, within)) for key in keys]
    parts = [(key, part) for key, part in known if part is not None]
    if not parts:
        owns = {program.last.get(key) for key in keys}
        if len(owns) == 1 and (own := owns.pop()) is not None:
            return Base(own)  # not found where it stands now: its own last dump
        if keys:
            found.unseen.append(at)
        return Base(INPUT)
    first = known[0][1]
    joined = program.grammar.join([part for _, (part, _) in parts])
    return Base(None, joined, names.units([key for key, _ in parts], first[1] if first else None))


def _fragment(
    program: _Program,
    dump: Printed,
    at: int,
    answered: int | None,
    fragment_of: dict[str, int],
    names: Names,
    found: Found,
) -> Base:
    text = dump.text()
    previous = fragment_of.get(dump.unit)
    unit = program.text_of(dump.unit, at, found)
    if answered is not None:
        base = Base(answered)
    elif previous is not None and not dump.fresh:
        base = Base(previous)
    elif unit is None:
        found.unseen.append(at)
        base = Base(INPUT)
    else:
        cut = program.grammar.fragment_cut(unit[0], text)
        if cut is None:
            found.uncut += 1
            base = Base(INPUT)
        else:
            base = Base(None, cut, names.fragment(dump.unit, unit[1]))
    if unit is not None:
        put = program.grammar.fragment_put(unit[0], text)
        if put is None:
            found.lost += 1
        else:
            program.set(dump.unit, put, at, None)
    return base
