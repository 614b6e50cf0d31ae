"""Rendering: the report model and the viewer's assets inlined into one self-contained HTML page."""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import json
import re
import struct
import zlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources

import jinja2
from markupsafe import Markup  # jinja2's own dependency

from .model import Report, to_json
from .terminal import decodable, decodable_json


@functools.lru_cache(maxsize=1)
def scripts() -> dict[str, list[dict]]:
    """static/scripts.json: the viewer's scripts in the order the page runs them (the tests read it too).

    "loader": the page's one inline script (it inflates the viewer's code, carried compressed as the data is:
    a third of the size); "viewer": the viewer itself. The CSP allows exactly these two scripts by their hashes.
    """
    return json.loads(_asset("static", "scripts.json"))


_DATA_ELEMENT = re.compile(r'<script type="application/octet-stream" id="report-data"[^>]*>([A-Za-z0-9+/=]*)</script>')
_CODE_ELEMENT = re.compile(r'<script type="application/octet-stream" id="viewer-code"[^>]*>([A-Za-z0-9+/=]*)</script>')
_JSON_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


def _asset(*parts: str) -> str:
    return resources.files("pypto_ir_trace").joinpath(*parts).read_text(encoding="utf-8")


def _escaped(json_text: str) -> str:
    """JSON that cannot end its <script> element or open a comment: the one escaping boundary."""
    # str.replace per character is ~10x faster than str.translate with a table on megabytes of text
    for char, escape in _JSON_ESCAPES:
        if char in json_text:
            json_text = json_text.replace(char, escape)
    return json_text


def encode_data(data: object) -> str:
    """The model as the page carries it: safe JSON, gzip-compressed (deterministic: no time, no name), base64.

    Dumps are text-heavy; compressed, a report is several times smaller, and base64 cannot close
    its <script> element whatever the dump says. The page inflates it with DecompressionStream.
    The JSON is compressed as it is encoded, a batch at a time: the whole text never exists at once
    (it is several times the report's size), and the bytes inflate to the whole text, escaped.
    zlib lets go of the GIL while it compresses, so threads deflate batches on every core while this
    one encodes the next. Each batch is deflated alone, primed with the end of the batch before it
    (as pigz does): the blocks join into one gzip member about as small as the whole text deflated at once.
    """
    crc, size, deflated = 0, 0, []
    with ThreadPoolExecutor(_THREADS) as threads:  # results are taken in submission order
        pending: deque[Future[bytes]] = deque()
        previous = b""
        for batch in _batches(_json_pieces(data)):
            crc, size = zlib.crc32(batch, crc), size + len(batch)
            pending.append(threads.submit(_deflate, batch, previous[-_WINDOW:]))
            previous = batch
            if len(pending) > 2 * _THREADS:  # bounds what is held
                deflated.append(pending.popleft().result())
        deflated += (future.result() for future in pending)
    trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)  # RFC 1952: CRC-32 and length of the JSON
    return base64.b64encode(b"".join([_GZIP_HEADER, *deflated, _LAST_BLOCK, trailer])).decode("ascii")


_THREADS = 2  # the machines this runs on have two cores or more; more threads would mostly wait for the GIL
_WINDOW = 32 * 1024  # deflate's window: the most of the previous batch that can prime the next
_GZIP_HEADER = bytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255])  # deflate, no flags, no time, OS unknown
_LAST_BLOCK = bytes([3, 0])  # an empty final block: the batches end on sync flushes


def _deflate(batch: bytes, primer: bytes) -> bytes:
    """The batch as raw deflate blocks, ending on a byte boundary so that the next batch's blocks can follow."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15, zdict=primer)  # an empty primer primes nothing
    return packer.compress(batch) + packer.flush(zlib.Z_SYNC_FLUSH)


_BATCH = 1 << 22  # bytes of JSON compressed at once: big, so the two threads rarely wait for the GIL


def _batches(pieces):
    """The pieces' safe JSON as UTF-8, joined into batches of about _BATCH bytes."""
    batch: list[bytes] = []
    size = 0
    for piece in pieces:
        text = _escaped(piece)
        try:
            batch.append(text.encode("utf-8"))
        except UnicodeEncodeError:  # a name that is not UTF-8: shown by its bytes
            batch.append(decodable_json(text).encode("utf-8"))
        size += len(batch[-1])
        if size >= _BATCH:
            yield b"".join(batch)
            batch, size = [], 0
    yield b"".join(batch)


_SLICE = 4096  # items of a long array encoded at once


def _json_pieces(data: object):
    """The data's JSON text in pieces: objects member by member, long arrays a slice at a time."""
    if isinstance(data, dict) and all(isinstance(key, str) for key in data):
        yield "{"
        for i, (key, value) in enumerate(data.items()):
            yield ("," if i else "") + _dumps(key) + ":"
            yield from _json_pieces(value)
        yield "}"
    elif isinstance(data, (list, tuple)) and len(data) > _SLICE:
        for i in range(0, len(data), _SLICE):
            yield ("[" if i == 0 else ",") + _dumps(data[i : i + _SLICE])[1:-1]
        yield "]"
    else:
        yield _dumps(data)


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def decode_data(page: str) -> dict:
    """The model back from a rendered page: the inverse of encode_data, for tests and tools."""
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
    carries it (gzip, no time or name in the header: the same bytes every run, base64)."""
    kinds = {None, "runs"} if runs else {None}  # the two-run views ship only in the reports that compare two runs
    code = "\n".join(_asset("static", entry["file"]) for entry in scripts()["viewer"] if entry.get("only") in kinds)
    return _csp_hash(code), base64.b64encode(gzip.compress(code.encode("utf-8"), 9, mtime=0)).decode("ascii")


def _csp_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@functools.lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    """Compiled once per process: a directory of reports renders it once per program."""
    return environment().from_string(_asset("templates", "report.html.j2"))


def environment() -> jinja2.Environment:
    """The pages' templates: every value escaped, a name that is not UTF-8 shown by its bytes."""
    shown = lambda value: decodable(value) if isinstance(value, str) else value
    return jinja2.Environment(
        autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True, finalize=shown
    )


def render(report: Report) -> str:
    model = to_json(report)
    template = _template()
    runs = report.runs is not None  # the runs view ships only in the reports that compare two runs
    kinds = {None, "runs"} if runs else {None}
    # viewer.css, then each shipped script's own stylesheet (scripts.json: a panel's, the runs view's)
    styled = [entry["css"] for entry in scripts()["viewer"] if "css" in entry and entry.get("only") in kinds]
    style = "".join(_asset("static", name) for name in ["viewer.css", *styled])
    loader = "\n".join(_asset("static", entry["file"]) for entry in scripts()["loader"])
    viewer_hash, viewer = _viewer(runs)
    csp = (
        "default-src 'none'; "
        f"script-src {_csp_hash(loader)} {viewer_hash}; "
        f"style-src {_csp_hash(style)}; "
        "worker-src blob:; "  # the search worker (searchworker.js), started from its own source
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    return template.render(
        title=model["title"],
        csp=csp,
        runs=runs,
        style=Markup(style),  # trusted assets of the package, inlined verbatim
        script=Markup(loader),
        viewer=viewer,  # base64: nothing to escape
        data=encode_data(model),  # base64: nothing to escape
    )
