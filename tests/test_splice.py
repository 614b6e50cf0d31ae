"""The format-neutral splice (splice.py) on a toy format: a unit is a `unit NAME` line and the lines indented under
it; a fragment is one of its lines, `NAME.k value` (the k-th line of unit NAME)."""

from __future__ import annotations

from pypto_ir_trace import splice
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.splice import FRAGMENT, INPUT, UNITS, WHOLE, Base, Grammar, Printed


def _units(text):
    lines = split_lines(text)[0] if text else []
    starts = [(row, line.split()[1]) for row, line in enumerate(lines) if line.startswith("unit ")]
    found = []
    for row, name in starts:
        stop = row + 1
        while stop < len(lines) and lines[stop].startswith("  "):
            stop += 1
        found.append((name, row, stop))
    return found


def _cut(unit, fragment):
    name, k = fragment.split()[0].split(".")
    lines = split_lines(unit)[0]
    return f"{name}.{k} {lines[int(k)].strip()}\n" if int(k) < len(lines) else None


def _put(unit, fragment):
    k = fragment.split()[0].split(".")[1]
    lines = split_lines(unit)[0]
    lines[int(k)] = "  " + fragment.split(None, 1)[1].rstrip("\n")
    return "".join(line + "\n" for line in lines)


TOY = Grammar(units=_units, fragment_cut=_cut, fragment_put=_put)


def _printed(kind, text, **fields):
    return Printed(kind, lambda: text, **fields)


def _bases(*dumps):
    return splice.bases(dumps, TOY, splice.names(lambda at: f"dump {at}"))


def test_a_unit_dump_after_its_own_dump_is_diffed_against_that_dump():
    found = _bases(_printed(UNITS, "unit f\n  a\n"), _printed(UNITS, "unit f\n  b\n"))
    assert found.bases == [Base(INPUT), Base(0)]
    assert found.unseen == [0]


def test_a_unit_dump_after_a_whole_dump_is_diffed_against_its_text_cut_out():
    whole = "head\nunit f\n  a\nunit g\n  b\ntail\n"
    found = _bases(_printed(WHOLE, whole), _printed(UNITS, "unit g\n  c\n"))
    assert found.bases[1] == Base(None, "unit g\n  b\n", "g (as of dump 0)")


def test_a_whole_dump_after_unit_dumps_is_diffed_against_the_last_whole_one_with_them_put_in():
    whole = "head\nunit f\n  a\nunit g\n  b\ntail\n"
    found = _bases(
        _printed(WHOLE, whole),
        _printed(UNITS, "unit g\n  c\n"),
        _printed(UNITS, "unit f\n  d\n  e\n"),
        _printed(WHOLE, "anything\n"),
        _printed(WHOLE, "anything again\n"),
    )
    assert found.bases[3] == Base(
        None, "head\nunit f\n  d\n  e\nunit g\n  c\ntail\n", "dump 0 with the unit dumps after it put in"
    )
    assert found.bases[4] == Base(3)  # no unit dump since: the whole dump before


def test_an_scc_dump_joins_its_units_as_they_stand_and_is_its_own_base_next_time():
    found = _bases(
        _printed(UNITS, "unit f\n  a\n"),
        _printed(UNITS, "unit g\n  b\n"),
        _printed(UNITS, "unit f\n  a\nunit g\n  b\n"),
        _printed(UNITS, "unit f\n  a2\nunit g\n  b\n"),
        _printed(UNITS, "unit g\n  b\n"),
    )
    assert found.bases[2] == Base(None, "unit f\n  a\nunit g\n  b\n", "f, g (as of dump 0)")
    assert found.bases[3] == Base(2)
    assert found.bases[4] == Base(None, "unit g\n  b\n", "g (as of dump 3)")  # printed with f by dump 3


def test_a_fragment_chain_is_diffed_dump_by_dump_and_put_into_its_unit():
    found = _bases(
        _printed(UNITS, "unit f\n  a\n  b\n"),
        _printed(FRAGMENT, "f.1 a1\n", unit="f", fresh=True),
        _printed(FRAGMENT, "f.1 a2\n", unit="f"),
        _printed(FRAGMENT, "f.2 b1\n", unit="f", fresh=True),
        _printed(UNITS, "unit f\n  a2\n  b1\n"),
    )
    assert found.bases[1] == Base(None, "f.1 a\n", "its part of f as of dump 0")
    assert found.bases[2] == Base(1)
    assert found.bases[3] == Base(None, "f.2 b\n", "its part of f")  # the next fragment, cut out of f as it stands
    assert found.bases[4] == Base(None, "unit f\n  a2\n  b1\n", "f")  # f with the fragments put in
    assert found.lost == found.uncut == 0


def test_a_fragment_of_a_unit_never_seen_is_shown_against_the_empty_input():
    found = _bases(_printed(FRAGMENT, "f.1 a\n", unit="f", fresh=True))
    assert found.bases == [Base(INPUT)] and found.unseen == [0]


def test_an_after_dump_is_diffed_against_the_before_dump_of_its_step():
    found = _bases(
        _printed(UNITS, "unit f\n  a\n", step=("P", "f"), before=True),
        _printed(UNITS, "unit g\n  x\n"),
        _printed(UNITS, "unit f\n  b\n", step=("P", "f")),
    )
    assert found.bases[2] == Base(0)


# A second toy, nested like MLIR's ops: a unit is a `NAME {` line and the lines to the `}` at its indentation,
# possibly inside another; a unit dump prints one unit, named by the format (Printed.unit), at column 0.


def _find(text, key, at):
    lines = split_lines(text)[0]
    for row, line in enumerate(lines):
        if line.strip() == f"{key} {{":
            return row, lines.index(line[: len(line) - len(line.lstrip())] + "}", row) + 1
    return None


def _dedented(lines, first, stop):
    indent = len(lines[first]) - len(lines[first].lstrip())
    return "".join(line[indent:] + "\n" for line in lines[first:stop])


def _indented(lines, first, stop, text):
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    return [indent + line for line in split_lines(text)[0]]


NESTED = Grammar(find=_find, cut=_dedented, place=_indented, adds=False)


def _nested(*dumps, grammar=NESTED):
    return splice.bases(dumps, grammar, splice.names(lambda at: f"dump {at}"))


def test_a_unit_the_format_names_is_cut_out_of_the_whole_dump_and_put_back_in_its_place():
    whole = "top {\n  f {\n    a\n  }\n  g {\n    b\n  }\n}\n"
    found = _nested(_printed(WHOLE, whole), _printed(UNITS, "g {\n  c\n}\n", unit="g"), _printed(WHOLE, "x\n"))
    assert found.bases[1] == Base(None, "g {\n  b\n}\n", "g (as of dump 0)")
    assert found.bases[2] == Base(
        None, "top {\n  f {\n    a\n  }\n  g {\n    c\n  }\n}\n", "dump 0 with the unit dumps after it put in"
    )


def test_a_unit_first_printed_after_a_unit_around_it_is_cut_out_of_that_dump():
    """m's dump printed f too (a module pass on a nested module changes its functions): f's first dump starts from
    f as m's dump shows it, not as the older whole dump does; then f is put into m as m's dump left it."""
    whole = "top {\n  m {\n    f {\n      a\n    }\n  }\n}\n"
    found = _nested(
        _printed(WHOLE, whole),
        _printed(UNITS, "m {\n  f {\n    b\n  }\n}\n", unit="m"),
        _printed(UNITS, "f {\n  c\n}\n", unit="f", within=("m",)),
        _printed(UNITS, "f {\n  d\n}\n", unit="f", within=("m",)),
        _printed(WHOLE, "x\n"),
    )
    assert found.bases[2] == Base(None, "f {\n  b\n}\n", "f (as of dump 1)")
    assert found.bases[3] == Base(2)  # nothing printed f since: its own dump
    assert found.bases[4].text == "top {\n  m {\n    f {\n      d\n    }\n  }\n}\n"


def test_a_unit_the_whole_dump_does_not_hold_is_not_put_in_and_is_diffed_against_its_own_last_dump():
    whole = "top {\n  f {\n    a\n  }\n}\n"
    found = _nested(
        _printed(WHOLE, whole),
        _printed(UNITS, "h {\n  b\n}\n", unit="h"),
        _printed(WHOLE, whole),
        _printed(UNITS, "h {\n  c\n}\n", unit="h"),
    )
    assert found.bases[1] == Base(INPUT) and found.unseen == [1]  # never printed before
    assert found.bases[2] == Base(0) and found.unspliced == 1  # h cannot be put in: the last whole dump
    assert found.bases[3] == Base(1)  # not in the whole dump since: against its own last dump
    assert found.unfound == [(1, 0), (3, 2)]


def test_the_spliced_program_is_finished_as_the_whole_dump_it_is_diffed_against_prints_it():
    """finish is given that whole dump's text (MLIR names attributes by the aliases that dump defines)."""
    renamed = Grammar(
        find=_find,
        cut=_dedented,
        place=_indented,
        finish=lambda lines, like: "\n".join([like.split("\n")[0], *lines[1:], ""]),
    )
    found = _nested(
        _printed(WHOLE, "v1\nf {\n  a\n}\n"),
        _printed(UNITS, "f {\n  b\n}\n", unit="f"),
        _printed(WHOLE, "v2\nf {\n  b\n}\n"),
        grammar=renamed,
    )
    assert found.bases[2].text == "v2\nf {\n  b\n}\n"


def test_with_the_whole_view_a_unit_dump_is_shown_as_the_program_as_it_stands_within_its_bound():
    """Each unit dump after a whole one is shown as the program with its units put in, against the dump before it;
    a unit dump before any whole one is shown as printed. Past the bound (characters shown), dumps are shown as
    printed again: the first against its unit cut out of the program the dump before it showed, the next ones by
    the rules, a dump shown whole that they name standing for its units as it printed them."""
    whole = "head\nunit f\n  a\nunit g\n  b\ntail\n"
    dumps = [
        _printed(UNITS, "unit f\n  z\n"),
        _printed(WHOLE, whole),
        _printed(UNITS, "unit g\n  c\n"),
        _printed(UNITS, "unit f\n  d\n"),
        _printed(UNITS, "unit g\n  e\n"),
        _printed(UNITS, "unit f\n  h\n"),
        _printed(WHOLE, whole),
    ]
    found = splice.bases(dumps, TOY, splice.names(lambda at: f"dump {at}"), whole_view=2 * len(whole))
    shown = [text.read() if text is not None else None for text in found.shown]
    assert shown == [
        None,
        None,
        "head\nunit f\n  a\nunit g\n  c\ntail\n",
        "head\nunit f\n  d\nunit g\n  c\ntail\n",
        None,  # past the bound
        None,
        None,
    ]
    assert found.bases[2:4] == [Base(2 - 1), Base(3 - 1)]
    assert found.over == 4
    assert found.bases[4] == Base(None, "unit g\n  c\n", "g (as of dump 3)")  # cut out of what dump 3 showed
    assert found.bases[5] == Base(None, "unit f\n  d\n", "f (as of dump 3)")  # as dump 3 printed it
    assert found.bases[6].dump is None and found.bases[6].text == "head\nunit f\n  h\nunit g\n  e\ntail\n"
