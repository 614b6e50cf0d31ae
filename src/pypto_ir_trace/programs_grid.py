"""The index page's programs x passes grid: after which passes each program's two runs differ, the first marked,
which passes had a different effect in the two runs, and per pass how many programs differ there and how many
had that pass's effect differ (the pass a compiler change touches).

Columns are the passes of every program's pipeline merged in order (pipeline_map.merge_orders), a pass that
runs twice in a pipeline (Simplify early and late) being two columns; the page (static/programsgrid.js) draws
them. Pure: Program records in, JSON-able data out.
"""

from __future__ import annotations

from collections.abc import Sequence

from .pipeline_map import merge_orders
from .structure import name_of, numbered


def _keys(steps: Sequence[tuple[str, str, bool, int, int]]) -> list[str]:
    """A program's rows as column keys: the pass name, and its occurrence when it runs again ("Simplify#2")."""
    return numbered(name for _, name, *_ in steps)


def data(programs: Sequence) -> dict:
    """The grid of the programs compared (both runs present), compact (256 programs' grid is a few KB):
    {columns: [pass name], labels: [a column's label in links, as the first program running it says],
     programs: [{name, report, spans: [[first column, count], ...]: its rows' columns, in runs,
                 labels: {row: label} where its label differs from its column's, differs: [[row, lines], ...]:
                 the rows after which its runs differ and by how many lines (at least 1), effects: [row, ...]: the
                 rows whose pass had a different effect in the two runs}]}."""
    compared = [program for program in programs if program.steps]
    keys = [_keys(program.steps) for program in compared]
    columns = merge_orders(keys)
    at = {key: c for c, key in enumerate(columns)}
    labels: list[str | None] = [None] * len(columns)
    for program, mine in zip(compared, keys):
        for (label, *_), key in zip(program.steps, mine):
            labels[at[key]] = labels[at[key]] or label
    return {
        "columns": [name_of(key) for key in columns],
        "labels": labels,
        "programs": [_program(program, [at[key] for key in mine], labels) for program, mine in zip(compared, keys)],
    }


def _program(program, columns: list[int], labels: list) -> dict:
    spans: list[list[int]] = []
    for c in columns:
        if spans and spans[-1][0] + spans[-1][1] == c:
            spans[-1][1] += 1
        else:
            spans.append([c, 1])
    return {
        "name": program.name,
        "report": program.report,
        "spans": spans,
        "labels": {str(r): step[0] for r, (step, c) in enumerate(zip(program.steps, columns)) if step[0] != labels[c]},
        "differs": [[r, max(1, ins + dels)] for r, (_, _, same, ins, dels) in enumerate(program.steps) if not same],
        "effects": list(program.effects),
    }
