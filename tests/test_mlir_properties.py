"""Property-based tests of MLIR input: real dump trees and streams (fixtures/mlir) with their headers, nesting
and text mutated and cut anywhere never crash the command: it writes a report whose model gives back every
snapshot's exact text, or exits 1 with one line saying what is wrong.

As in tests/test_properties.py (the same for PyPTO dumps): 30 examples per property by default,
HYPOTHESIS_PROFILE=long (HYPOTHESIS_EXAMPLES=n) for more.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import event, given
from hypothesis import strategies as st

from dumptools import FIXTURES
from modeltools import load_dump, not_rebuilt
from pypto_ir_trace import cli, render
from test_properties import PROFILE

MLIR = FIXTURES / "mlir"
TREES = (
    "failing_bufferize/tree_dir",
    "failing_bufferize/tree_dir_no_module_scope",
    "matmul_bias_relu/variant_tree_dir_two_runs",
)
STREAMS = (
    "failing_bufferize/stream.txt",
    "failing_bufferize/stream_no_module_scope.txt",
    "multi_func/stream_no_module_scope.txt",
)
HEADER = "// -----// IR Dump "

# Header lines of every shape the reader meets or may meet: both syntaxes, Before, Failed, module scope, and
# broken ones (no closing marker, empty pass, brackets in names, hostile names, a carriage return).
HEADERS = [
    "// -----// IR Dump After CSE (cse) //----- //",
    "// -----// IR Dump Before Canonicalizer (canonicalize) ('func.func' operation: @caller) //----- //",
    "// -----// IR Dump After CanonicalizerPass: canonicalize{max-iterations=1} Failed //----- //",
    "// -----// IR Dump After Inliner (inline) ('builtin.module' operation) //----- //   ",
    "// -----// IR Dump After  //----- //",
    "// -----// IR Dump After X ((y)) ('func.func' operation: @a b) //----- //",
    "// -----// IR Dump After Odd\u202e (\x1b[31mx) ('op' operation: @\u2066f) //----- //",
    "// -----// IR Dump After CSE (cse) //----- //\r",
    "// -----// IR Dump After CSE (cse)",
    "// -----// IR Dump",
]
NESTING = [
    "{",
    "}",
    "  }",
    "module {",
    "  ^bb9:",
    '  "test.op"() ({\n  ^bb0:\n    "test.yield"() : () -> ()\n  }) : () -> ()',
    "  func.func @extra() {\n    return\n  }",
    "  func.func @open() {",
]
HOSTILE = [
    "\x00",
    "\x1b[2J",
    "\x7f",
    "\x0c",
    "\r",
    "\x85",
    "\u2028",
    "\ufeff",
    "\u202e",
    "\u2066",
    "\u200b",
    '"',
    "%" + "x" * 20_000,  # a huge identifier
    "@" + "\u00e9" * 3_000,
    "loc(",
    "</script>",
]
INVALID_UTF8 = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82"]


@cache
def tree_seed(name: str) -> tuple[tuple[str, str], ...]:
    root = MLIR / name
    return tuple((p.relative_to(root).as_posix(), p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.mlir")))


@cache
def stream_seed(name: str) -> str:
    return (MLIR / name).read_text(encoding="utf-8")


@st.composite
def mutated_text(draw, text: str) -> str:
    """1-4 edits of one text: its headers, its nesting, hostile text, a cut."""
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        at = draw(st.integers(0, len(lines)))
        headers = [i for i, line in enumerate(lines) if line.startswith(HEADER)]
        op = draw(
            st.sampled_from(["header", "header", "named", "nesting", "drop brace", "hostile", "cut", "duplicate"])
        )
        if op == "header" and headers and draw(st.booleans()):  # rewrite, flip or drop one of them
            i = draw(st.sampled_from(headers))
            how = draw(st.sampled_from(["rewrite", "flip", "drop"]))
            if how == "drop":
                del lines[i]
            else:
                flipped = (
                    lines[i].replace("After", "Before") if "After" in lines[i] else lines[i].replace("Before", "After")
                )
                lines[i] = draw(st.sampled_from(HEADERS)) if how == "rewrite" else flipped
        elif op == "header":  # one more, anywhere: a stream gets another dump, a tree file a stray header
            lines.insert(at, draw(st.sampled_from(HEADERS)))
        elif op == "named" and headers:  # hostile text in a header: in the pass's or the op's name, or anywhere
            i = draw(st.sampled_from(headers))
            where = draw(st.sampled_from([lines[i].find("("), lines[i].find("@"), draw(st.integers(0, len(lines[i])))]))
            where = max(where, 0)
            lines[i] = lines[i][:where] + draw(st.sampled_from(HOSTILE)) + lines[i][where:]
        elif op == "nesting":
            lines.insert(at, draw(st.sampled_from(NESTING)))
        elif op == "drop brace":
            braces = [i for i, line in enumerate(lines) if "{" in line or "}" in line]
            if braces:
                del lines[draw(st.sampled_from(braces))]
        elif op == "duplicate":
            n = draw(st.integers(1, 12))
            lines[at:at] = lines[at : at + n]
        text = "\n".join(lines)
        if op == "hostile":
            where = draw(st.integers(0, len(text)))
            text = text[:where] + draw(st.sampled_from(HOSTILE)) + text[where:]
        elif op == "cut":
            text = text[: draw(st.integers(0, len(text)))]
    return text


@st.composite
def file_bytes(draw, text: str) -> bytes:
    """A mutated text as a file holds it, now and then with a byte sequence that is not UTF-8."""
    data = draw(mutated_text(text)).encode("utf-8")
    if draw(st.integers(0, 5)):  # mostly valid text
        return data
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.sampled_from(INVALID_UTF8)) + data[at:]


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@st.composite
def trees(draw) -> dict[str, bytes]:
    """A real tree with 1-3 files mutated, and maybe one file dropped or renamed to other counters."""
    files = {name: text.encode("utf-8") for name, text in tree_seed(draw(st.sampled_from(TREES)))}
    for name in draw(st.lists(st.sampled_from(sorted(files)), min_size=1, max_size=3, unique=True)):
        files[name] = draw(file_bytes(files[name].decode("utf-8")))
    shuffle = draw(st.sampled_from(["none", "none", "drop", "renumber"]))
    name = draw(st.sampled_from(sorted(files)))
    if shuffle == "drop":
        del files[name]
    elif shuffle == "renumber":
        folder, _, base = name.rpartition("/")  # every tree file lies in a folder: the top-level op's
        counters = "_".join(str(draw(st.integers(0, 9))) for _ in range(draw(st.integers(1, 3))))
        files[f"{folder}/{counters}_{base.split('_')[-1]}"] = files.pop(name)
    return files


@st.composite
def streams(draw) -> bytes:
    return draw(file_bytes(stream_seed(draw(st.sampled_from(STREAMS)))))


def check_command(path: Path, broken: bool) -> None:
    """The command on `path`: a report that gives back every snapshot, or exit 1 with one line (no report)."""
    out = path.parent / "report.html"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main([str(path), "-o", str(out), "-q"])
    said = err.getvalue().splitlines()
    event("exit 1" if code == 1 else "a report")
    if code == 1:
        assert len(said) == 1 and said[0].startswith("pypto-ir-trace: error: "), said  # not "internal error"
        assert not out.exists()
        return
    assert code == 0 and said == [], (code, said)
    assert not broken, "a report from text that is not UTF-8"
    data = render.decode_data(out.read_text(encoding="utf-8"))
    assert not_rebuilt({**data, **data["pipelines"][0]}, load_dump(path)) == []


@PROFILE
@given(trees())
def test_mutated_trees_give_a_report_that_rebuilds_every_snapshot_or_one_line(files):
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory) / "tree_dir"
        for name, data in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
        check_command(root, broken=not all(map(is_utf8, files.values())))


@PROFILE
@given(streams())
def test_mutated_streams_give_a_report_that_rebuilds_every_snapshot_or_one_line(data):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "stream.txt"
        path.write_bytes(data)
        check_command(path, broken=not is_utf8(data))
