"""The index page's programs x passes grid: after which passes each program's two runs differ, the first marked,
and per pass how many programs differ there (the pass a compiler change affects most).

Columns are the passes of every program's pipeline merged in order (pipeline_map.merge_orders), a pass that
runs twice in a pipeline (Simplify early and late) being two columns; the page (static/programsgrid.js) draws
them. Pure: Program records in, JSON-able data out.
"""

from __future__ import annotations

from collections.abc import Sequence

from .pipeline_map import merge_orders


def _keys(steps: Sequence[tuple[str, str, bool, int, int]]) -> list[str]:
    """A program's rows as column keys: the pass name, and its occurrence when it runs again ("Simplify#2")."""
    seen: dict[str, int] = {}
    keys = []
    for _, name, *_ in steps:
        seen[name] = seen.get(name, 0) + 1
        keys.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return keys


def data(programs: Sequence) -> dict:
    """{columns: [name, ...], programs: [{name, report, labels, columns, differs}]} of the programs compared (both
    runs present): per aligned row, its label in the report's links, its column, and how much the runs differ
    after it (inserted + deleted lines, at least 1 when they differ; 0: identical)."""
    compared = [program for program in programs if program.steps]
    keys = [_keys(program.steps) for program in compared]
    columns = merge_orders(keys)
    at = {key: c for c, key in enumerate(columns)}
    return {
        "columns": [key.split("#")[0] for key in columns],
        "programs": [
            {
                "name": program.name,
                "report": program.report,
                "labels": [label for label, *_ in program.steps],
                "columns": [at[key] for key in mine],
                "differs": [0 if same else max(1, ins + dels) for _, _, same, ins, dels in program.steps],
            }
            for program, mine in zip(compared, keys)
        ],
    }
