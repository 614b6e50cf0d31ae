"""Rendering: the report model and the viewer's assets inlined into one self-contained HTML page."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from importlib import resources

import jinja2
from markupsafe import Markup  # jinja2's own dependency

from .model import Report, to_json

# In dependency order: the pure logic, the data reader, the viewer's modules, its entry point, the bootstrap.
_SCRIPTS = (
    "data.js", "rows.js", "linediff.js", "compare.js", "model.js",
    "state.js", "keys.js", "passlist.js", "functions.js", "panes.js", "search.js",
    "following.js", "level.js", "sidebar.js", "print.js", "viewer.js", "boot.js",
)
_DATA_ELEMENT = re.compile(r'<script type="application/octet-stream" id="report-data"[^>]*>([A-Za-z0-9+/=]*)</script>')
_JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _asset(*parts: str) -> str:
    return resources.files("pypto_ir_trace").joinpath(*parts).read_text(encoding="utf-8")


def safe_json(data: object) -> str:
    """JSON that cannot end its <script> element or open a comment: the one escaping boundary."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_JSON_ESCAPES)


def encode_data(data: object) -> str:
    """The model as the page carries it: safe JSON, gzip-compressed (mtime 0: deterministic), base64.

    Dumps are text-heavy; compressed, a report is several times smaller, and base64 cannot close
    its <script> element whatever the dump says. The page inflates it with DecompressionStream.
    """
    return base64.b64encode(gzip.compress(safe_json(data).encode("utf-8"), compresslevel=6, mtime=0)).decode("ascii")


def decode_data(page: str) -> dict:
    """The model back from a rendered page: the inverse of encode_data, for tests and tools."""
    match = _DATA_ELEMENT.search(page)
    if match is None:
        raise ValueError("no report data element in the page")
    return json.loads(gzip.decompress(base64.b64decode(match.group(1))).decode("utf-8"))


def _csp_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def render(report: Report) -> str:
    model = to_json(report)
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    template = env.from_string(_asset("templates", "report.html.j2"))
    style = _asset("static", "viewer.css")
    script = "\n".join(_asset("static", name) for name in _SCRIPTS)
    csp = (
        "default-src 'none'; "
        f"script-src {_csp_hash(script)}; "
        f"style-src {_csp_hash(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    return template.render(
        title=model["title"],
        csp=csp,
        style=Markup(style),  # trusted assets of the package, inlined verbatim
        script=Markup(script),
        data=encode_data(model),  # base64: nothing to escape
    )
