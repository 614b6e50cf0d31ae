"""The header line that starts every LLVM dump: which pass, Before or After, on which unit, and what became of it.

The shapes LLVM 19 prints (stderr of clang -mllvm, opt, llc):
- `; *** IR Dump After SROAPass on foo ***` (new pass manager; `-print-before-all` says Before); the unit is a
  function, `[module]`, a call-graph SCC `(foo, bar)` or `loop %for.body in function foo`, and ` (invalidated)`
  follows a unit the pass deleted (then the module is printed);
- `*** IR Dump After SROAPass on foo ***` without the `; `, `*** IR Dump At Start ***` (the input),
  `... omitted because no change ***`, `... filtered out ***` and `*** IR Pass PassManager<Function> on foo
  ignored ***` (`-print-changed`);
- `*** IR Dump After Pre-ISel Intrinsic Lowering (pre-isel-intrinsic-lowering) ***` (the legacy pass manager
  of llc's IR passes: a description and the pass argument, no unit); with `-print-module-scope`, a function or
  loop pass's header names its unit after it: `... (objc-arc-contract) *** (function: foo)`, `*** (loop: %18)`;
- `# *** IR Dump After X86 DAG->DAG Instruction Selection (x86-isel) ***:` (machine code, llc).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import PREFIXES as PREFIXES

_HEADER = re.compile(
    r"^(?P<lead>; |# )?\*\*\* IR (?:(?P<pass>Pass) |Dump (?P<when>After|Before|At Start) ?)(?P<body>.*?) ?\*\*\*:?"
    r"(?: \((?P<scope>function|loop): (?P<scoped>.*)\))?[ \t]*$"
)
_OUTCOMES = {" omitted because no change": "unchanged", " filtered out": "filtered", " ignored": "ignored"}
_LEGACY = re.compile(r"^(?P<desc>.*) \((?P<arg>[^()\s]+)\)$")  # "Pre-ISel Intrinsic Lowering (pre-isel-...)"
_LOOP = re.compile(r"^loop (?P<loop>%.*) in function (?P<function>.+)$")


@dataclass(frozen=True)
class Header:
    before: bool
    name: str  # the pass as the list names it: "SROAPass", "x86-isel"
    cls: str  # the pass as the header names it: "SROAPass", "X86 DAG->DAG Instruction Selection"
    unit: str  # what it ran on, as the header says: "foo", "[module]", "(foo, bar)", a loop; "" when not said
    machine: bool = False  # a machine-code pass (llc)
    start: bool = False  # -print-changed's "At Start": the pipeline's input
    outcome: str = ""  # "unchanged", "filtered", "ignored" (-print-changed), "invalidated"; "": the IR follows
    function: str = ""  # the function a loop is in
    loop: str = ""  # the loop's name ("%for.body", "%<unnamed loop>")
    full: str = ""  # the pass as the header names it where `name` shortens a C++ class name ("": as `name`)

    @property
    def prints(self) -> bool:
        """IR follows the header (else it is one line of -print-changed)."""
        return self.outcome in ("", "invalidated")


def parse_header(line: str) -> Header | None:
    match = _HEADER.match(line.rstrip("\r\n"))
    if match is None:
        return None
    body, outcome = match["body"], ""
    if match["when"] == "At Start":
        return Header(False, "input", "At Start", "[module]", start=True)
    for suffix, word in _OUTCOMES.items():
        if body.endswith(suffix):
            body, outcome = body.removesuffix(suffix), word
    if body.endswith(" (invalidated)"):
        body, outcome = body.removesuffix(" (invalidated)"), "invalidated"
    cls, unit = _split_unit(body)
    if match["scope"]:  # the legacy pass manager's unit, said after the header when it prints the module
        unit = match["scoped"] if match["scope"] == "function" else f"loop {match['scoped']}"
    name = _short(cls)
    legacy = _LEGACY.match(cls)
    if legacy is not None:
        cls, name = legacy["desc"], legacy["arg"]
    loop = _LOOP.match(unit)
    return Header(
        before=match["when"] == "Before",
        name=name,
        cls=cls,
        unit=unit,
        machine=match["lead"] == "# ",
        outcome=outcome,
        function=loop["function"] if loop else "",
        loop=loop["loop"] if loop else "",
        full=cls if name not in (cls, legacy and legacy["arg"]) else "",
    )


_NAMESPACE = re.compile(r"\(anonymous namespace\)::|\b\w+::")


def _short(cls: str) -> str:
    """A C++ class name as the list shows it: no namespaces, its first template argument only, as LLVM's own
    pipeline text names such a pass (`RequireAnalysisPass<llvm::GlobalsAA, llvm::Module,
    llvm::AnalysisManager<Module>>` -> `RequireAnalysisPass<GlobalsAA>`); the other arguments follow from the unit."""
    name = _NAMESPACE.sub("", cls)
    depth = 0
    for at, char in enumerate(name):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "," and depth == 1:
            return name[:at] + ">"
    return name


def _split_unit(body: str) -> tuple[str, str]:
    """(the pass, its unit) of "SROAPass on foo"; a loop's name may hold " on ", a pass's never does."""
    at = body.find(" on loop %")
    if at < 0:
        at = body.rfind(" on ")
    return (body[:at], body[at + 4 :]) if at >= 0 else (body, "")
