"""The HTML page: self-contained, network-free, and dump text can never become markup or script."""

from __future__ import annotations

import base64
import dataclasses
import gzip
import json
import random
import re
import tracemalloc
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dumptools import PROGRAM, REAL
from modeltools import load_dump, report_of, safe_json
from pypto_ir_trace import model, pagedata, render

HOSTILE = "</script><script>alert(1)</script><!-- {{ 7*7 }} {% if %} \u2028\u2029 &amp; <img src=x onerror=alert(2)>"


def page_of(path) -> str:
    return render.render(report_of(load_dump(path)))


def test_data_round_trips_and_cannot_close_its_script_element(make_dump):
    dump = make_dump({"00_frontend.py": PROGRAM, "01_after_" + "X.py": PROGRAM + f"# {HOSTILE}\n"})
    report = report_of(load_dump(dump))
    page = render.render(report)
    raw = re.search(r'id="report-data" data-encoding="gzip\+base64">(.*?)</script>', page, re.S).group(1)
    assert re.fullmatch(r"[A-Za-z0-9+/=]+", raw)  # base64: no character of it can end the element
    assert render.decode_data(page) == json.loads(json.dumps(model.to_json(report)))
    assert page.count("<script") == 3  # the viewer's code, the data, the loader: nothing from the dump
    assert "alert" not in page and "onerror" not in page


def test_json_inside_is_safe_too():
    """Defence in depth: the JSON itself would be safe in a <script> element even uncompressed."""
    text = gzip.decompress(base64.b64decode(pagedata.encode_data({"x": HOSTILE}))).decode("utf-8")
    for forbidden in ("<", ">", "&", "\u2028", "\u2029"):
        assert forbidden not in text
    assert json.loads(text) == {"x": HOSTILE}


@pytest.mark.parametrize("batch", [1 << 22, 997])
def test_streamed_encoding_is_one_gzip_member_of_the_safe_json(monkeypatch, batch):
    """encode_data deflates batch by batch in threads: the blocks must join into one gzip member whose
    text is the data's safe JSON, and as small as the whole text compressed at once (with small batches, many
    wait their turn in the threads and each is primed with the one before it)."""
    monkeypatch.setattr(pagedata, "_BATCH", batch)
    long = [HOSTILE + str(i) for i in range(3 * 4096 + 5)]
    data = {
        "lines": long,
        "spans": [[i, i % 7, 3] for i in range(9000)],
        "nested": {"ids": tuple(range(5000)), "short": [1, 2], "empty": [], "text": HOSTILE},
        "n": None,
        "flag": True,
    }
    text = safe_json(data).encode("utf-8")
    stream = base64.b64decode(pagedata.encode_data(data))
    inflater = zlib.decompressobj(31)  # one gzip member, its CRC and length checked
    assert inflater.decompress(stream) == text and inflater.eof and not inflater.unused_data
    assert stream[4:8] == bytes(4)  # no time stamp: the same model gives the same bytes
    assert len(stream) <= 1.02 * len(gzip.compress(text, compresslevel=6))


def test_encoding_holds_a_few_batches_not_the_report():
    """The JSON is deflated as it is made: what is held at once is a few batches (those in the threads, the
    one being joined) and the deflated bytes, not the whole text nor a batch's pieces beside its bytes."""
    data = {"lines": [f"  %{i} = arith.addi %arg{i % 7}, %c{i % 13} : i32 // line {i}" for i in range(300_000)]}
    size = len(pagedata.dumps(data))  # about 18 MB
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        deflated = pagedata.gzip_json(data)
        held = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert held < min(6 * pagedata._BATCH + 2 * len(deflated), size / 2), (held, size)


def test_the_page_is_encoded_as_it_is_written_never_whole(monkeypatch):
    """The writer takes the page's base64 a deflated batch at a time: what is held at once is a few batches
    (the threads', the one being made, the deflated ones waiting their turn) and the deflaters' own state,
    however large the data's member is (hex deflates to about half: the member here is 36 batches)."""
    monkeypatch.setattr(pagedata, "_BATCH", 1 << 18)
    rng = random.Random(7)
    data = {"lines": [rng.randbytes(40).hex() for _ in range(200_000)]}  # 16.6 MB of JSON
    written = 0
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for piece in pagedata.base64_pieces(pagedata.gzip_pieces(data)):
            written += len(piece)
        held = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    member = written * 3 // 4
    assert held < 16 * pagedata._BATCH < member / 2, (held, member)  # measured: 3.5 MB held, member 9.4 MB


@given(st.lists(st.binary(max_size=40), max_size=12))
def test_base64_in_pieces_is_the_base64_of_the_whole(pieces):
    assert "".join(pagedata.base64_pieces(pieces)) == base64.b64encode(b"".join(pieces)).decode("ascii")


def test_a_title_holding_the_pages_data_marker_leaves_the_data_in_its_place(make_dump):
    dump = make_dump({"00_frontend.py": PROGRAM})
    report = dataclasses.replace(report_of(load_dump(dump)), title=render._DATA_PLACE)
    page = render.render(report)
    assert render.decode_data(page)["title"] == render._DATA_PLACE
    assert page.endswith("</script>\n</body>\n</html>\n") and "document.body.append(script)" in page


def test_same_model_same_bytes():
    report = report_of(load_dump(REAL / "advanced_01_split_k_concise" / "passes_dump"))
    assert render.render(report) == render.render(report)


def test_title_is_escaped(make_dump, tmp_path):
    dump = make_dump({"00_frontend.py": PROGRAM}, name="<b>{{x}}&")
    page = page_of(dump)
    assert "<b>{{x}}&" not in page
    assert "&lt;b&gt;{{x}}&amp;/passes_dump" in page


def test_self_contained_with_a_csp_that_forbids_the_network():
    page = page_of(REAL / "advanced_01_split_k_concise" / "passes_dump")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src &#39;none&#39;" in csp
    assert "connect-src" not in csp  # falls back to default-src 'none'
    assert not re.search(r"https?://", page.replace("http-equiv", ""))
    assert not re.search(r"<(link|img|iframe)\b", page)
    assert not re.search(r"<script[^>]+src=", page)


def test_the_csp_allows_the_loader_and_the_viewer_code_it_inflates_by_their_hashes():
    page = page_of(REAL / "advanced_01_split_k_concise" / "passes_dump")
    csp = (
        re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1).replace("&#39;", "'")
    )
    allowed = dict(part.strip().split(" ", 1) for part in csp.split(";"))["script-src"].split()
    loader = re.search(r"<script>(.*)</script>", page, re.S).group(1)
    viewer = render.decode_viewer(page)
    assert allowed == [render.csp_hash(loader), render.csp_hash(viewer)]
    assert "IRTraceViewer.start" in viewer and "IRTraceViewer" not in loader  # the viewer travels compressed
    assert len(page) < len(loader) + len(viewer)  # compressed, the viewer is a third of its size


def test_the_csp_allows_a_blob_worker_and_nothing_more():
    """The search worker (issue 9) starts from a blob: URL; every other directive stays as strict."""
    page = page_of(REAL / "advanced_01_split_k_concise" / "passes_dump")
    csp = (
        re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1).replace("&#39;", "'")
    )
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    assert directives == {
        "default-src": "'none'",
        "script-src": directives["script-src"],
        "style-src": directives["style-src"],
        "worker-src": "blob:",
        "img-src": "data:",
        "base-uri": "'none'",
        "form-action": "'none'",
    }
    assert re.fullmatch(r"'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+'", directives["script-src"])
    assert re.fullmatch(r"'sha256-[A-Za-z0-9+/=]+'", directives["style-src"])
