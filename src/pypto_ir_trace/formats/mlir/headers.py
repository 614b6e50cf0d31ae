"""The IR Dump header line that starts every MLIR dump: which pass, Before or After, on which op."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...errors import DumpError

HEADER_PREFIX = "// -----// IR Dump "
_HEADER = re.compile(r"^// -----// IR Dump (?P<when>Before|After) (?P<body>.*?) //----- //[ \t]*$")
_OP_PART = re.compile(r" \('(?P<op>[^']+)' operation(?:: (?P<sym>@.+))?\)$")
# "Canonicalizer (canonicalize)" (LLVM 19, 22) and "CanonicalizerPass: canonicalize{opts}" (IREE); either
# may carry "Failed" after the class name. A class may be qualified by C++ namespaces, anonymous ones too:
# "(anonymous namespace)::TestTransformDialectEraseSchedulePass (test-transform-dialect-erase-schedule)",
# "mlir::iree_compiler::detail::OpPipelineAdaptorPass: iree-op-pipeline-adaptor".
_CLASS = r"(?P<cls>(?:\(anonymous namespace\)::)?[^\s:()]+(?:::[^\s:()]+)*)"
_OLD_PASS = re.compile(rf"^{_CLASS}(?P<failed> Failed)? \((?P<arg>[^()]*)\)$")
_NEW_PASS = re.compile(rf"^{_CLASS}(?P<failed> Failed)?: (?P<arg>[^\s{{]+)(?:\{{.*\}})?(?P<failed2> Failed)?$")
_FRAME = re.compile(r"^// -----// (?P<text>IR Dump .*?) //----- //[ \t]*$")
HEADER_PROBE = 1 << 16  # bytes read to find the first header line of a file


@dataclass(frozen=True)
class Header:
    before: bool
    failed: bool
    cls: str  # the pass class: "Canonicalizer"
    arg: str  # the pass argument: "canonicalize"
    op: str | None  # "func.func" when the header names the op (module scope)
    sym: str | None  # "@matmul"
    text: str = ""  # the header as printed, without its frame: "IR Dump After Canonicalizer (canonicalize) ..."


def parse_header(line: str) -> Header | None:
    match = _HEADER.match(line.rstrip("\r\n"))
    if match is None:
        return None
    body, op, sym = match["body"], None, None
    op_part = _OP_PART.search(body)
    if op_part is not None:
        body, op, sym = body[: op_part.start()], op_part["op"], op_part["sym"]
    named = _OLD_PASS.match(body) or _NEW_PASS.match(body)
    text = _FRAME.match(line.rstrip("\r\n"))["text"]  # type: ignore[index]  # _HEADER matched: so does the frame
    if named is None:  # an unknown layout: keep the text, it is still the pass as the compiler named it
        failed = body.endswith(" Failed")
        cls = body.removesuffix(" Failed")
        return Header(match["when"] == "Before", failed, cls, cls, op, sym, text)
    failed = bool(named["failed"] or named.groupdict().get("failed2"))
    return Header(match["when"] == "Before", failed, named["cls"], named["arg"] or named["cls"], op, sym, text)


def first_line(file: Path) -> str:
    try:
        with file.open("rb") as handle:
            return handle.readline(HEADER_PROBE).decode("utf-8", errors="replace").lstrip("\ufeff")
    except OSError as err:
        raise DumpError(f"cannot read {file}: {err.strerror or err}") from None
