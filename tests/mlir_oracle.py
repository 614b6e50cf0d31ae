"""An oracle for MLIR pass dumps, computed from the dump files alone, sharing no code with the package: what each
pass is (its header line), in which order the passes ran, and how many lines each added and removed.

Counts. The report diffs a pass function by function (its regions, paired by name, or by content where the
pass renamed one) and merges the diffs; a line that moves from one function to another is removed from one and
added to the other. So its counts are bounded, not fixed, by what GNU diff says:
- at least those of the whole text's minimal diff (`diff --minimal`): no diff of the two texts has fewer;
- at most those of the minimal diff taken function by function, functions paired by name (plus the lines
  outside functions), with PATIENCE_SLACK lines more: the report's line diff anchors on lines that occur once
  (patience), which is not always minimal (one line more on 3 of 1,000 real passes);
- and added minus removed is exact: the change in the number of lines.
Most passes change one function, and then the bounds meet: the count is GNU diff's.

Ops. A pass's op counts are the ops of its after text less those of its before text, each op counted where the
printer starts it: at the start of its line, after its results (`%0 = arith.constant`). Only ops in custom form
(an unquoted dotted name) are counted, and no function or module (the map's rows, not ops): tree-sitter-mlir
reads a generic op (`"llvm.intr.memcpy"(...)`) printed after a custom op as that op's operands, so the report
cannot count those; `generic_ops` names them, for a caller to leave out.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HEADER = re.compile(r"(?m)^// -----// IR Dump (?P<when>Before|After) (?P<body>.*) //----- //[ \t]*$")
# the pass argument: "Name (arg) ('op' operation: @f)" (LLVM 19) or "Name: arg{options} ('op' ...)" (IREE)
_OP = re.compile(r" \('[^']+' operation(?:: @.+)?\)$")
_OLD = re.compile(r" \((?P<arg>[^()]*)\)$")
_NEW = re.compile(r": (?P<arg>[^\s{:]+)(?:\{.*\})?$")
# a function-like op where the printer opens it: `func.func @f(`, `llvm.func internal @f(`, `util.func public @f(`
FUNCTION = re.compile(
    r"^(?P<indent>\s*)(?P<op>[a-z_]+\.func|util\.initializer)\b(?:\s+[a-z_]+)*\s*(?P<sym>@\"[^\"]*\"|@[\w$.-]+)?"
)
# the generic form's (--mlir-print-op-generic): `"func.func"() <{function_type = ..., sym_name = "f"}> ({`
GENERIC_FUNCTION = re.compile(r'^(?P<indent>\s*)"[a-z_]+\.func"\(\) <\{.*\bsym_name = (?P<sym>"(?:[^"\\]|\\.)*")')
PATIENCE_SLACK = 2  # lines a pass may count above the per-function minimal diff (see the module docstring)


@dataclass(frozen=True)
class Dump:
    header: str  # the header line's words, "Canonicalizer (canonicalize) ('func.func' operation: @f)"
    text: str  # what follows the header line, up to the next one, exactly as in the file
    before: bool = False  # an IR Dump Before (--mlir-print-ir-before-all)

    @property
    def arg(self) -> str:
        body = _OP.sub("", self.header).removesuffix(" Failed")
        match = _OLD.search(body) or _NEW.search(body)
        return match["arg"] if match else body

    @property
    def failed(self) -> bool:
        return " Failed" in _OP.sub("", self.header)


def op_of(header: str) -> tuple[str | None, str | None]:
    """(op, symbol) a module-scope header names: ("func.func", "@f"), ("builtin.module", None); (None, None)."""
    match = re.search(r"\('(?P<op>[^']+)' operation(?:: (?P<sym>@.+))?\)$", header)
    return (match["op"], match["sym"]) if match else (None, None)


def stream(path: Path) -> list[Dump]:
    """A stream's dumps, in file order."""
    data = path.read_text(encoding="utf-8")
    found = list(HEADER.finditer(data))
    return [
        Dump(
            m["body"],
            _diagnostics_cut(data[m.end() + 1 : found[k + 1].start() if k + 1 < len(found) else len(data)]),
            m["when"] == "Before",
        )
        for k, m in enumerate(found)
    ]


def _diagnostics_cut(text: str) -> str:
    """A dump's text without the diagnostics printed after it (`file:1:2: error: ...` at column 0 and on), the
    report the compiler printed when it ended (--mlir-timing: from its `===---...---===` banner on), or a pass's own
    dump in its run (Triton's `// -----// SoftwarePipeliner internal IR Dump After: LowerLoops`)."""
    match = re.search(
        r"(?m)^(?:(?:within split at \S+ offset )?[^\s:\"]*:\d+(?::\d+)?: (?:error|warning|note|remark): |===-+===$"
        r"|// -----// (?!IR Dump (?:Before|After) ))",
        text,
    )
    return text if match is None else text[: match.start()]


def tree_file(path: Path) -> Dump:
    data = path.read_text(encoding="utf-8")
    match = HEADER.match(data)
    assert match is not None, path
    return Dump(match["body"], data[match.end() + 1 :])


def gnu_counts(before: str, after: str) -> tuple[int, int]:
    """(added, removed) lines of GNU diff --minimal between two texts."""
    if before == after:
        return 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "before", Path(tmp) / "after"
        a.write_text(before, encoding="utf-8")
        b.write_text(after, encoding="utf-8")
        out = subprocess.run(["diff", "--minimal", str(a), str(b)], capture_output=True, text=True).stdout
    lines = out.split("\n")
    return sum(line.startswith("> ") for line in lines), sum(line.startswith("< ") for line in lines)


def changed_lines(before: str, after: str) -> list[str]:
    """The lines GNU diff deletes ("< line") or inserts ("> line") between two texts."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp, "a"), Path(tmp, "b")
        a.write_text(before)
        b.write_text(after)
        out = subprocess.run(["diff", str(a), str(b)], capture_output=True, text=True).stdout
    return [line for line in out.split("\n") if line.startswith(("< ", "> "))]


def functions(text: str) -> dict[str, list[str]]:
    """A text's lines by function (outermost; a repeated name gets "#2"), those outside every function under ""."""
    lines = text.split("\n")
    found: dict[str, list[str]] = {"": []}
    row = 0
    while row < len(lines):
        match = FUNCTION.match(lines[row])
        if match is None or match["sym"] is None:
            match = GENERIC_FUNCTION.match(lines[row])
        if match is None or match["sym"] is None:
            found[""].append(lines[row])
            row += 1
            continue
        end = row
        if lines[row].rstrip().endswith("{"):  # a body: up to the `}` at the op's own indentation
            end += 1
            while end < len(lines) and not lines[end].startswith(match["indent"] + "}"):
                end += 1
        key, n = match["sym"], 2
        while key in found:
            key, n = f"{match['sym']}#{n}", n + 1
        found[key] = lines[row : end + 1]
        row = end + 1
    return found


def bounds(before: str, after: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """((added, removed) of the whole text's minimal diff, (added, removed) function by function)."""
    whole = gnu_counts(before, after)
    if before == after:
        return whole, whole
    old, new = functions(before), functions(after)
    added = removed = 0
    for key in old.keys() | new.keys():
        a, r = gnu_counts(_joined(old.get(key)), _joined(new.get(key)))
        added, removed = added + a, removed + r
    return whole, (added, removed)


def _joined(lines: list[str] | None) -> str:
    return "" if not lines else "\n".join(lines) + "\n"


def check_counts(before: str, after: str, inserted: int, deleted: int) -> str | None:
    """Why (inserted, deleted) cannot be the report's counts for a pass from `before` to `after`; None when they can."""
    (w_add, w_rem), (f_add, f_rem) = bounds(before, after)
    if inserted - deleted != w_add - w_rem:
        return f"+{inserted} -{deleted}: the line count changed by {w_add - w_rem}"
    if inserted < w_add:
        return f"+{inserted} -{deleted} is less than the minimal diff, +{w_add} -{w_rem}"
    if inserted > f_add + PATIENCE_SLACK:
        return f"+{inserted} -{deleted} is more than the minimal diff function by function, +{f_add} -{f_rem}"
    return None


def input_chunks(path: Path) -> list[list[str]]:
    """The function names each `// -----` chunk of an input file defines, in order (what --split-input-file cuts)."""
    chunks = re.split(r"(?m)^// -----\s*$", path.read_text(encoding="utf-8"))
    return [re.findall(r"(?m)^\s*func\.func\s+(?:private\s+|public\s+)?(@[\w$.-]+)", chunk) for chunk in chunks]


ALIAS = re.compile(r"^(?P<name>[#!][\w.$-]+) = (?P<value>.*)$")


def written_out(text: str) -> str:
    """A module-scope text with its aliases (`#map = affine_map<...>` before the module) written out where used,
    and their definitions left out: as a local-scope dump prints attributes and types."""
    lines = text.split("\n")
    aliases: dict[str, str] = {}
    while lines and (match := ALIAS.match(lines[0])):
        aliases[match["name"]] = match["value"]
        lines = lines[1:]
    body = "\n".join(lines)
    if aliases:
        names = re.compile(
            "(?:" + "|".join(re.escape(n) for n in sorted(aliases, key=len, reverse=True)) + r")(?![\w.$-])"
        )
        for _ in aliases:  # an alias may be defined with another
            body, count = names.subn(lambda m: aliases[m.group()], body)
            if not count:
                break
    return body


def function_text(text: str, sym: str) -> str:
    """The function `sym` (as a header names it: unquoted) as a module-scope text prints it, aliases written out."""
    found = functions(written_out(text))
    return _joined(found.get(sym) or found.get('@"' + sym[1:] + '"'))


# An op where the printer starts it: its results, then its name, quoted (generic form) or not (custom form)
OP_START = re.compile(r'^\s*(?:%[^=]*?=\s*)?(?P<quote>"?)(?P<name>[a-z_][\w$]*(?:\.[\w$]+)+)(?P=quote)(?=[\s(<{:]|$)')


def _ops(text: str, quoted: bool) -> Counter[str]:
    found: Counter[str] = Counter()
    for line in text.split("\n"):
        match = OP_START.match(line)
        if match and bool(match["quote"]) == quoted and not match["name"].endswith((".func", ".module")):
            found[match["name"]] += 1
    return found


def op_counts(before: str, after: str) -> dict[str, int]:
    """{op: count after less count before} of the ops in custom form, those whose count changed."""
    delta = _ops(after, False)
    delta.subtract(_ops(before, False))
    return {op: n for op, n in delta.items() if n}


def generic_ops(*texts: str) -> set[str]:
    """The names of the ops the texts print in generic form."""
    return {op for text in texts for op in _ops(text, True)}
