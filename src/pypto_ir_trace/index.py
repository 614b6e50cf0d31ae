"""The index page of a directory of two-run reports: every program, its first divergent pass and the size
of the difference there; identical programs collapsed; and a programs x passes grid of where the runs differ
(programs_grid.py), drawn by the page's one script (allowed by its hash). No network."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

import jinja2

from . import __version__, edits, programs_grid, summary
from .pagedata import dumps, escaped
from .render import asset, csp_hash, environment, scripts
from .terminal import decodable_json

MARKER = '<meta name="generator" content="pypto-ir-trace runs index">'  # how a directory we wrote is known again


def render(programs: Sequence, this_title: str, baseline_title: str, skipped: Sequence[str] = ()) -> str:
    """The page for `programs` (programs.Program records, in name order); `skipped`: the folders of either
    root not read as programs, each with its reason."""
    style = asset("static", "index.css") + asset("static", "heatgrid.css")
    grid = programs_grid.data(programs)
    script = "\n".join(asset("static", entry["file"]) for entry in scripts()["index"])  # the grid's, run once
    groups = {status: [p for p in programs if p.status == status] for status in summary.STATUSES}
    by_name = {program.name: program for program in programs}
    same_edit = [
        (group.edit, [by_name[name] for name in group.programs])
        for group in edits.groups((program.name, program.edit) for program in programs)
    ]
    return (
        environment()
        .from_string(asset("templates", "index.html.j2"))
        .render(
            marker=jinja2.utils.markupsafe.Markup(MARKER),
            csp=f"default-src 'none'; style-src {csp_hash(style)}; script-src {csp_hash(script)}; base-uri 'none'; "
            "form-action 'none'",
            grid=jinja2.utils.markupsafe.Markup(escaped(decodable_json(dumps(grid)))) if grid["programs"] else None,
            script=jinja2.utils.markupsafe.Markup(script),
            style=jinja2.utils.markupsafe.Markup(style),
            generator=f"pypto-ir-trace {__version__}",
            this_title=this_title,
            baseline_title=baseline_title,
            total=len(programs),
            skipped=skipped,
            groups=groups,
            one_side=summary.ONE_SIDE,
            href=lambda program: quote(program.report),
            same_edit=same_edit,
            effects=lambda program: ", ".join(program.steps[r][0] for r in program.effects) or "none",
            at_edit=lambda program: f"{quote(program.report)}#{_at_edit(program.edit)}",
        )
    )


def _at_edit(edit: dict) -> str:
    """The fragment that opens a program's report where its edit is: the pass, in Pass effect."""
    if edit["pass"] == "input":
        return "pass=input"
    return f"pass={quote(edit['pass'].partition(' ')[0])}&view=effect"
