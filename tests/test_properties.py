"""Property-based tests: mutated real snapshots never crash discovery, structure, diff or rendering,
and every diff is exact.

Example counts are modest by default; HYPOTHESIS_PROFILE=long runs thousands per property:
    HYPOTHESIS_PROFILE=long python -m pytest tests/test_properties.py -q
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modeltools import build, load_dump, report_of, source
from pypto_ir_trace import model, render
from pypto_ir_trace.errors import DumpError
from pypto_ir_trace.languages import PYTHON
from test_odd_dumps import GENERATE, check_exact

ROOT = Path(__file__).resolve().parents[1]
_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", max_examples=30, **_COMMON)
settings.register_profile("long", max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "3000")), **_COMMON)
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@cache
def seeds() -> tuple[tuple[str, str], ...]:
    """Pairs of adjacent snapshots that differ: a few real ones (small and mid-sized) and the odd base."""
    pairs = [(GENERATE.BASE, GENERATE.NEXT)]
    for name in ("advanced_01_split_k_concise", "models_03_flash_attention_concise"):
        files = sorted((ROOT / "fixtures" / "real" / name / "passes_dump").glob("*.py"))
        texts = [f.read_text(encoding="utf-8") for f in files]
        changed = [(a, b) for a, b in itertools.pairwise(texts) if a != b]
        pairs.extend(changed[:: max(1, len(changed) // 6)])
    return tuple(pairs)


PIECES = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    '"',
    "'",
    '"""',
    ":",
    "    ",
    "\t",
    "        ",
    "\n",
    "\r\n",
    "\r",
    "\x00",
    "\x1b",
    "\x7f",
    "\ufeff",
    "\u2028",
    "\u2029",
    "\x85",
    "é",
    "缩放",
    "𝔣",
    "def ",
    "class ",
    "@pl.function\n",
    "    def f(self):\n",
    "print(",
    "#",
    "\\",
    "</script>",
    "<!--",
    "{{",
    "{%",
    "\ud800",
]


@st.composite
def mutated(draw, text: str) -> str:
    """Random edits of a text: insertions of syntax pieces, deletions, duplications, truncation."""
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "insert", "delete", "delete_line", "indent", "truncate", "text"]))
        if op == "insert":
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif op == "delete_line":
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            text = text[:start] + (text[end + 1 :] if end >= 0 else "")
        elif op == "indent":
            start = text.rfind("\n", 0, at) + 1
            text = text[:start] + draw(st.sampled_from(["", " ", "    ", "\t"])) + text[start:].lstrip(" ")
        elif op == "truncate":
            text = text[:at]
        else:
            text = text[:at] + draw(st.text(max_size=20)) + text[at:]
    return text


def _pair(draw) -> tuple[str, str, str]:
    before, after = draw(st.sampled_from(seeds()))
    return before, after, draw(mutated(after))


pairs = st.composite(lambda draw: _pair(draw))()


def _encodable(text: str) -> str:
    """Lone surrogates cannot be written as UTF-8: a file on disk never holds one."""
    return text.encode("utf-8", errors="replace").decode("utf-8")


@PROFILE
@given(pairs, st.booleans())
def test_mutated_dumps_never_crash_and_the_model_rebuilds_every_text(pair, as_bytes):
    before, after, odd = pair
    files = {"00_frontend.py": before, "01_after_Odd.py": _encodable(odd), "02_after_Fixed.py": after}
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        for name, text in files.items():
            (root / name).write_bytes(text.encode("utf-8"))
        if as_bytes:  # a pass that crashed mid-character: the dump is rejected with a clear error
            (root / "01_after_Odd.py").write_bytes(odd.encode("utf-8", errors="replace")[:-1] + b"\xff")
        try:
            dump = load_dump(root)
            data = build(dump, context=3)  # snapshots are read, and decoded, as the model needs them
        except DumpError as err:
            assert as_bytes and "01_after_Odd.py is not UTF-8" in str(err)
            return
        texts = [s.text for s in dump.snapshots]
    for p, entry in enumerate(data["passes"]):
        assert source(data, entry["after"]) == texts[p + 1]
    assert source(data, 0) == texts[0]


@PROFILE
@given(pairs)
def test_every_diff_is_exact_whole_and_per_function(pair):
    before, after, odd = pair
    check_exact(before, odd)
    check_exact(odd, after)
    check_exact(odd, odd + "\n")


@PROFILE
@given(pairs, st.text(alphabet="<>/!-&'\"{}%sciptSCRIPT \u2028\u2029\n", max_size=40))
def test_dump_text_never_closes_the_data_script(pair, hostile):
    _, _, odd = pair
    odd = _encodable(odd)  # text read from a file is valid UTF-8: no lone surrogates
    at = len(odd) // 2
    odd = odd[:at] + hostile + "</script><!--<script>" + odd[at:]
    files = {"00_frontend.py": odd, "01_after_Odd.py": odd[::-1]}
    from test_odd_dumps import dump_of

    report = report_of(dump_of(files))
    html = render.render(report)
    assert html.count('id="report-data"') == 1
    assert render.decode_data(html) == json.loads(json.dumps(model.to_json(report)))  # the element holds all the data
    assert "</script><!--<script>" not in html  # dump text is only ever inside the compressed data
    assert html.count("</script>") == 3  # the viewer's code, the data and the loader


@PROFILE
@given(pairs)
def test_trusted_regions_never_misattribute_lines(pair):
    """A trusted verdict means: regions in order, disjoint, inside the file, each named on its own def line."""
    from pypto_ir_trace import structure
    from pypto_ir_trace.dump import split_lines

    _, _, odd = pair
    lines, _ = split_lines(odd)
    found = PYTHON.analyze(structure.parse(lines, PYTHON), lines)
    if not found.trusted:
        assert found.reason
        return
    previous_end = 0
    for region in found.regions:
        assert previous_end <= region.start <= region.def_line < region.end <= len(lines)
        name = region.key.split("#")[0].rsplit(".", 1)[-1]
        assert name in lines[region.def_line]
        previous_end = region.end
