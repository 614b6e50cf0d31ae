"""Rendering: the report model and the viewer's assets inlined into one self-contained HTML page, allowed by its
CSP (the model's encoding: pagedata.py)."""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import json
import re
from collections.abc import Iterator
from importlib import resources

import jinja2
from markupsafe import Markup  # jinja2's own dependency

from .model import Report, to_json
from .pagedata import base64_pieces, gzip_pieces
from .terminal import decodable


@functools.lru_cache(maxsize=1)
def scripts() -> dict[str, list[dict]]:
    """static/scripts.json: the viewer's scripts in the order the page runs them (the tests read it too).

    "loader": the page's one inline script (it inflates the viewer's code, carried compressed as the data is:
    a third of the size); "viewer": the viewer itself. The CSP allows exactly these two scripts by their hashes.
    """
    return json.loads(asset("static", "scripts.json"))


_DATA_PLACE = "\0report data\0"
_DATA_ELEMENT = re.compile(r'<script type="application/octet-stream" id="report-data"[^>]*>([A-Za-z0-9+/=]*)</script>')
_CODE_ELEMENT = re.compile(r'<script type="application/octet-stream" id="viewer-code"[^>]*>([A-Za-z0-9+/=]*)</script>')


def asset(*parts: str) -> str:
    return resources.files("pypto_ir_trace").joinpath(*parts).read_text(encoding="utf-8")


def decode_data(page: str) -> dict:
    """The model back from a rendered page: the inverse of pieces(), for tests and tools."""
    return json.loads(_inflated(page, _DATA_ELEMENT, "report data"))


def decode_viewer(page: str) -> str:
    """The viewer's code back from a rendered page, as the page runs it (for tests and tools)."""
    return _inflated(page, _CODE_ELEMENT, "viewer code")


def _inflated(page: str, element: re.Pattern, what: str) -> str:
    """The text a gzip+base64 element of the page carries, as the page's data.js inflates it."""
    match = element.search(page)
    if match is None:
        raise ValueError(f"no {what} element in the page")
    return gzip.decompress(base64.b64decode(match.group(1))).decode("utf-8")


@functools.lru_cache(maxsize=2)
def _viewer(runs: bool) -> tuple[str, str]:
    """The viewer's code for a report with or without the runs view: its CSP hash, and the code as the page
    carries it (gzip, no time or name in the header: the same bytes every run, base64). Level 6, as the data:
    level 9 made it 0.4 % smaller (466 of 107,907 bytes) for 16 ms more of every run (41 against 25 ms)."""
    kinds = {None, "runs"} if runs else {None}  # the two-run views ship only in the reports that compare two runs
    code = "\n".join(asset("static", entry["file"]) for entry in scripts()["viewer"] if entry.get("only") in kinds)
    return csp_hash(code), base64.b64encode(gzip.compress(code.encode("utf-8"), 6, mtime=0)).decode("ascii")


def csp_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@functools.lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    """Compiled once per process: a directory of reports renders it once per program."""
    return environment().from_string(asset("templates", "report.html.j2"))


def environment() -> jinja2.Environment:
    """The pages' templates: every value escaped, a name that is not UTF-8 shown by its bytes."""
    shown = lambda value: decodable(value) if isinstance(value, str) else value
    return jinja2.Environment(
        autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True, finalize=shown
    )


def render(report: Report) -> str:
    """The page, whole (pieces() gives it as it is encoded)."""
    return "".join(pieces(report))


def pieces(report: Report) -> Iterator[str]:
    """The page in pieces: the template around the data, and the data's base64 as each batch is deflated (the
    writer takes each as it comes: the page is never whole in memory)."""
    model = to_json(report)
    template = _template()
    runs = report.runs is not None  # the runs view ships only in the reports that compare two runs
    kinds = {None, "runs"} if runs else {None}
    # viewer.css, then each shipped script's own stylesheet (scripts.json: a panel's, the runs view's)
    styled = [entry["css"] for entry in scripts()["viewer"] if "css" in entry and entry.get("only") in kinds]
    style = "".join(asset("static", name) for name in ["viewer.css", *styled])
    loader = "\n".join(asset("static", entry["file"]) for entry in scripts()["loader"])
    viewer_hash, viewer = _viewer(runs)
    csp = (
        "default-src 'none'; "
        f"script-src {csp_hash(loader)} {viewer_hash}; "
        f"style-src {csp_hash(style)}; "
        "worker-src blob:; "  # the search worker (searchworker.js), started from its own source
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    head, _, tail = template.render(
        title=model["title"],
        csp=csp,
        runs=runs,
        style=Markup(style),  # trusted assets of the package, inlined verbatim
        script=Markup(loader),
        viewer=Markup(viewer),  # base64: nothing to escape
        data=Markup(_DATA_PLACE),  # where the data goes: the last thing of the page that is not a trusted asset
    ).rpartition(_DATA_PLACE)
    yield head
    yield from base64_pieces(gzip_pieces(model))
    yield tail
