"""Rendering: the report model and the viewer's assets inlined into one self-contained HTML page."""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources

import jinja2
from markupsafe import Markup  # jinja2's own dependency

_SCRIPTS = ("rows.js", "viewer.js")  # order matters: the viewer uses the row builder
_JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _asset(*parts: str) -> str:
    return resources.files("pypto_ir_trace").joinpath(*parts).read_text(encoding="utf-8")


def safe_json(data: object) -> str:
    """JSON that cannot end its <script> element or open a comment: the one escaping boundary."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_JSON_ESCAPES)


def _csp_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def render(model: dict) -> str:
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
        data=Markup(safe_json(model)),
    )
