"""Generate synthetic PyPTO-like passes_dump/ directories, deterministic per seed."""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

# The real pipeline order (qwen3 decode); cycling through it repeats names the way real dumps do.
PASS_NAMES = [
    "InlineFunctions",
    "UnrollLoops",
    "CtrlFlowTransform",
    "ConvertToSSA",
    "Simplify",
    "NormalizeStmtStructure",
    "FlattenCallExpr",
    "OutlineHierarchyScopes",
    "OutlineIncoreScopes",
    "OutlineClusterScopes",
    "ConvertTensorToTileOps",
    "OptimizeOrchTensors",
    "LowerCompositeOps",
    "FlattenTileNdTo2D",
    "LegalizeTileCast",
    "AutoTileMatmulL0",
    "CanonicalizeTileSlice",
    "InferTileMemorySpace",
    "InsertMxScaleAddr",
    "ResolveBackendOpLayouts",
    "LowerAutoVectorSplit",
    "ExpandMixedKernel",
    "InjectGMPipeBuffer",
    "SplitVectorKernel",
    "StampTfreeSplit",
    "NormalizeReturnOrder",
    "SkewCrossCorePipeline",
    "LowerPipelineToSlots",
    "LowerPipelineLoops",
    "CanonicalizeIOOrder",
    "MaterializeTensorStrides",
    "InitMemRef",
    "MaterializeSemanticAliases",
    "MemoryReuse",
    "AllocateMemoryAddr",
    "FoldNoOpReshape",
    "FuseCreateAssembleToSlice",
    "DeriveCallDirections",
    "AutoDeriveTaskDependencies",
    "ExpandManualPhaseFence",
    "SynthesizeAllReduceSignals",
    "MaterializeCommDomainScopes",
    "LowerHostTensorCollectives",
    "MaterializeDistTensorCtx",
    "Simplify",
    "MaterializeRuntimeScopes",
    "ClassifyIterArgCarry",
    "InsertCommFence",
    "MaterializeValidShapeSymbols",
]
# Passes that rewrite every function (renames, address assignment) whenever they run.
GLOBAL_PASSES = {"ConvertToSSA", "InitMemRef", "AllocateMemoryAddr", "FlattenTileNdTo2D"}

DECORATORS = (
    "@pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
    "@pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)",
    "@pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)",
    "@pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)",
    "@pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)",
)
STEMS = (
    "rmsnorm",
    "qk_matmul",
    "softmax",
    "pv_matmul",
    "rope",
    "gate_proj",
    "up_proj",
    "down_proj",
    "residual",
    "kv_cache",
    "attn_out",
    "silu_mul",
    "online_update",
    "assemble",
    "reduce",
)
TILE_OPS = ("add", "mul", "sub", "exp", "adds", "muls", "cast", "row_sum", "row_expand_mul", "move", "reshape")
MEMS = (("Vec", "vec"), ("Mat", "mat"), ("Acc", "acc"), ("Left", "left"), ("Right", "right"))
SHAPES = ((16, 128), (64, 128), (16, 256), (128, 256), (32, 64), (1, 16))
DTYPES = ("pl.FP32", "pl.BF16", "pl.FP16")
_SSA = re.compile(r"__ssa_v(\d+)")
_NUMBER = re.compile(r"\b(\d+)\b")


@dataclass
class Function:
    name: str
    decorator: str
    signature: str
    body: list[str]  # indented lines, indentation included
    text: str = ""  # rendered cache; "" means stale

    def render(self) -> str:
        if not self.text:
            self.text = "".join(f"{line}\n" for line in [f"    {self.decorator}", self.signature, *self.body])
        return self.text


@dataclass
class Options:
    functions: int = 10
    lines: int = 20  # per function, decorator and def included
    passes: int = 10
    change_rate: float = 0.5  # share of non-global passes that change the IR
    touched: int = 3  # functions a local changing pass touches, at most
    warn_rate: float = 0.15  # share of changing passes that write a .log
    broken: int = 0  # snapshots with a syntax error inside one function's body
    broken_class: bool = False  # one snapshot with a syntax error at class level
    seed: int = 0


@dataclass
class Result:
    path: Path
    changed: list[bool] = field(default_factory=list)  # per pass, whether its text differs from the previous
    snapshot_lines: int = 0  # lines of the frontend snapshot
    files: int = 0
    bytes: int = 0


def _tile_type(rng: random.Random, shape=None) -> str:
    rows, cols = shape or rng.choice(SHAPES)
    mem, short = rng.choice(MEMS)
    dtype = rng.choice(DTYPES)
    size = rows * cols * (4 if dtype == "pl.FP32" else 2)
    offset = rng.randrange(0, 64) * 512
    return (
        f"pl.Tile[[{rows}, {cols}], {dtype}, pl.MemRef(mem_{short}_{rng.randrange(1, 12)}, "
        f"pl.const({offset}, pl.INT64), {size}), pl.Mem.{mem}, pl.TileView(blayout=pl.TileLayout.col_major, "
        f"slayout=pl.TileLayout.row_major, fractal={rng.choice((512, 1024))})]"
    )


def _statement(rng: random.Random, names: list[str], params: list[str]) -> str:
    """One simple statement; `names` are SSA values defined so far."""
    var = f"{rng.choice(('x', 'acc', 'tile', 'chunk', 'gamma', 'mi', 'li', 'oi'))}_{rng.randrange(100)}"
    target = f"{var}__ssa_v{rng.randrange(4)}"
    kind = rng.random()
    if kind < 0.25 or not names:
        rows, cols = rng.choice(SHAPES)
        src = rng.choice(params)
        line = (
            f"{target}: {_tile_type(rng, (rows, cols))} = pl.tile.load({src}__ssa_v0, [0, k0__ssa_v{rng.randrange(3)}], "
            f"[{rows}, {cols}], [{rows}, {cols}], target_memory=pl.Mem.{rng.choice(MEMS)[0]})"
        )
    elif kind < 0.6:
        op = rng.choice(TILE_OPS)
        args = ", ".join(rng.sample(names, min(len(names), 2)))
        line = f"{target}: {_tile_type(rng)} = pl.tile.{op}({args})"
    elif kind < 0.72:
        rows, cols = rng.choice(SHAPES)
        line = (
            f"{target}: pl.Tensor[[{rows}, {cols}], {rng.choice(DTYPES)}] = "
            f"pl.tensor.slice({rng.choice(params)}__ssa_v0, [{rows}, {cols}], [0, k0__ssa_v0])"
        )
    elif kind < 0.9:
        line = f"k0__ssa_v{rng.randrange(3)}: pl.Scalar[pl.INDEX] = kb__idx_v0 * {rng.choice((128, 256, 512))}"
    else:
        line = (
            f"{rng.choice(params)}__ssa_v1: pl.Tensor[[16, 8192], pl.BF16] = "
            f"pl.tile.store({rng.choice(names)}, [0, k0__ssa_v0], {rng.choice(params)}__iter_v1)"
        )
    names.append(target)
    return line


def _block_header(rng: random.Random, depth: int) -> str:
    kind = rng.random()
    if kind < 0.45:
        loop = f"kb{depth}__idx_v0"
        return f"for {loop}, (acc__iter_v{depth},) in pl.range({rng.choice((4, 16, 64))}, init_values=(acc__ssa_v0,)):"
    if kind < 0.7:
        return f"for d{depth}__idx_v0 in pl.range({rng.choice((2, 8, 32))}):"
    if kind < 0.9:
        return f'with pl.at(level=pl.Level.CORE_GROUP, name_hint="{rng.choice(STEMS)}_{depth}"):'
    return "with pl.scope(mode=pl.ScopeMode.MANUAL):"


def _body(rng: random.Random, count: int, params: list[str]) -> list[str]:
    """`count` body lines: statements, comments, nested loops and scopes, ending in a return."""
    lines: list[str] = []
    names: list[str] = []
    depth, fresh = 2, False  # fresh: the last line opened a block that still needs a statement
    while len(lines) < count - 1:
        pad = "    " * depth
        roll = rng.random()
        left = count - 1 - len(lines)
        if not fresh and depth > 2 and roll < 0.12:
            depth -= 1
            continue
        if not fresh and roll < 0.22 and depth < 5 and left > 2:
            lines.append(pad + _block_header(rng, depth))
            depth, fresh = depth + 1, True
            continue
        if not fresh and roll < 0.3:
            lines.append(
                f"{pad}# {rng.choice(STEMS)}: stage {rng.randrange(9)}, keep {rng.choice(names or ['x'])} live"
            )
            continue
        lines.append(pad + _statement(rng, names, params))
        fresh = False
    lines.append(f"        return {names[-1] if names else 'None'}")
    return lines


def _function(rng: random.Random, index: int, lines: int) -> Function:
    name = f"{rng.choice(STEMS)}_{index:04d}"
    params = [f"{p}_{index}" for p in rng.sample(("q", "k", "v", "w", "out", "hidden", "cache"), 3)]
    sig = ", ".join(f"{p}: pl.Tensor[[16, 8192], {rng.choice(DTYPES)}]" for p in params)
    signature = f"    def {name}(self, {sig}) -> pl.Tensor[[16, 8192], pl.BF16]:"
    return Function(name, rng.choice(DECORATORS), signature, _body(rng, max(lines - 2, 2), params))


def _is_statement(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.endswith(":") and not text.startswith(("#", "return"))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _edit(line: str) -> str:
    """A small in-place change, the kind a lowering pass makes."""
    if _SSA.search(line):
        return _SSA.sub(lambda m: f"__ssa_v{int(m.group(1)) + 1}", line, count=1)
    return (
        _NUMBER.sub(lambda m: str(int(m.group(1)) * 2), line, count=1) if _NUMBER.search(line) else line + "  # edited"
    )


def _mutate(rng: random.Random, fn: Function, edits: int) -> None:
    """Edit, insert and delete a few statement lines, keeping the body valid Python."""
    body = fn.body
    for _ in range(edits):
        i = rng.randrange(len(body) - 1)
        roll = rng.random()
        if roll < 0.6 and _is_statement(body[i]):
            body[i] = _edit(body[i])
        elif roll < 0.8 and _is_statement(body[i]):
            body.insert(i + 1, " " * _indent(body[i]) + _statement(rng, ["acc__ssa_v0", "x_1__ssa_v0"], ["out"]))
        elif (
            i > 0 and _is_statement(body[i]) and _is_statement(body[i - 1]) and _indent(body[i]) == _indent(body[i - 1])
        ):
            del body[i]  # the previous statement keeps the block non-empty
    fn.text = ""


def _rename_all(rng: random.Random, fn: Function) -> None:
    """An SSA-style rewrite: about one line in eight gets a new version."""
    fn.body = [_edit(line) if _is_statement(line) and rng.random() < 0.125 else line for line in fn.body]
    fn.text = ""


def _snapshot(program: str, functions: list[Function], extra: str | None) -> str:
    head = f"# pypto.program: {program}\nimport pypto.language as pl\n\n@pl.program\nclass {program}:\n"
    parts = [fn.render() for fn in functions]
    if extra is not None:  # a class-level line between two methods
        parts.insert(len(parts) // 2, extra)
    return head + "".join(parts)


def _warnings(rng: random.Random, filename: str, lines: int) -> str:
    names = ("x_1__ssa_v2", "acc__ssa_v0", "tile_7__ssa_v1", "k0__ssa_v2")
    return "".join(
        f"{filename}:{rng.randrange(1, lines)}:{rng.randrange(1, 40)}: warning: "
        f"unused variable '{rng.choice(names)}' [-Wunused-var]\n"
        for _ in range(rng.randrange(1, 6))
    )


def _plan(rng: random.Random, opts: Options) -> list[tuple[str, str]]:
    """Per pass: (name, kind) with kind "noop", "local" or "global"."""
    plan = []
    for p in range(opts.passes):
        name = PASS_NAMES[p % len(PASS_NAMES)]
        if name in GLOBAL_PASSES:
            plan.append((name, "global"))
        else:
            plan.append((name, "local" if rng.random() < opts.change_rate else "noop"))
    return plan


def _breaks(rng: random.Random, plan: list[tuple[str, str]], opts: Options) -> dict[int, str]:
    """Which local passes introduce a broken body ("body") or class-level line ("class")."""
    local = [p for p, (_, kind) in enumerate(plan) if kind == "local"]
    chosen = sorted(rng.sample(local, min(len(local), opts.broken + opts.broken_class)))
    breaks = {p: "body" for p in chosen[: opts.broken]}
    if opts.broken_class and len(chosen) > opts.broken:
        breaks[chosen[-1]] = "class"
    return breaks


def generate(out: str | Path, opts: Options | None = None, **overrides) -> Result:
    """Write `<out>/passes_dump/` and return what was generated."""
    opts = opts or Options(**overrides)
    rng = random.Random(opts.seed)
    root = Path(out) / "passes_dump"
    root.mkdir(parents=True, exist_ok=True)
    for old in root.iterdir():  # stale files from a bigger run would change the dump
        old.unlink()
    program = f"synth_program_s{opts.seed}"
    functions = [_function(rng, i, opts.lines) for i in range(opts.functions)]
    plan = _plan(rng, opts)
    breaks = _breaks(rng, plan, opts)
    width = max(2, len(str(opts.passes)))
    text = _snapshot(program, functions, None)
    result = Result(root, snapshot_lines=text.count("\n"))
    _write(root / f"{0:0{width}d}_frontend.py", text, result)
    repair: Function | None = None  # a function whose broken line the next changing pass removes
    extra: str | None = None
    for p, (name, kind) in enumerate(plan, start=1):
        if kind != "noop":
            if repair is not None:
                repair.body = [line for line in repair.body if "<broken>" not in line]
                repair.text, repair = "", None
            extra = None
            _apply(rng, functions, kind, opts)
            repair, extra = _break(rng, functions, breaks.get(p - 1), repair, extra)
        previous = text
        text = _snapshot(program, functions, extra)
        filename = f"{p:0{width}d}_after_{name}.py"
        _write(root / filename, text, result)
        result.changed.append(text != previous)
        if kind != "noop" and rng.random() < opts.warn_rate:
            _write(root / (filename[:-3] + ".log"), _warnings(rng, filename, text.count("\n")), result)
    return result


def _apply(rng: random.Random, functions: list[Function], kind: str, opts: Options) -> None:
    if kind == "global":
        for fn in functions:
            _rename_all(rng, fn)
        return
    for fn in rng.sample(functions, min(len(functions), rng.randint(1, opts.touched))):
        _mutate(rng, fn, rng.randint(1, 4))


def _break(rng, functions, what, repair, extra):
    """Inject the syntax error planned for this pass; it lasts until the next changing pass."""
    if what == "body":
        fn = rng.choice(functions)
        at = rng.randrange(1, len(fn.body) - 1)
        pad = " " * max(_indent(fn.body[at]), 8)
        fn.body.insert(
            at, f"{pad}tile__ssa_v9: pl.Tile[[64, 128], pl.FP32] = pl.tile.adds(tile__ssa_v8, 1.0)) + = <broken>"
        )
        fn.text = ""
        return fn, extra
    if what == "class":
        return repair, "    <unprintable: pl.ir.ClusterNode @ 0x7f3a> = = ;\n"
    return repair, extra


def _write(path: Path, text: str, result: Result) -> None:
    data = text.encode("utf-8")
    path.write_bytes(data)
    result.files += 1
    result.bytes += len(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", help="directory that receives passes_dump/")
    defaults = Options()
    for name, value in vars(defaults).items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            parser.add_argument(flag, action="store_true")
        else:
            parser.add_argument(flag, type=type(value), default=value)
    args = vars(parser.parse_args(argv))
    result = generate(args.pop("out"), Options(**args))
    noop = result.changed.count(False)
    print(
        f"{result.path}: {result.files} files, {result.bytes / 1e6:.1f} MB, "
        f"{result.snapshot_lines} lines/snapshot, {noop}/{len(result.changed)} no-op passes"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
