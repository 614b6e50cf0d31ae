"""Generate a synthetic MLIR tree dump (module scope) from real functions, following the tree layout rules.

The functions are the real mlir-opt functions of fixtures/mlir/multi_func, repeated under new names. The
pipeline alternates a module pass (`k_<pass>.mlir`) with a nested func.func pipeline whose files sit in
`func_func_<name>/k_j_<pass>.mlir` (k: the module dump before it, j: the function's own counter). Each file
holds the whole module after its header, as `--mlir-print-ir-module-scope` prints it. Nested passes leave
most functions alone, renumber some (values shift by one: the noise Ignore renumbering hides) and change
others for real (a constant added or removed, a constant's value changed).
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass
from pathlib import Path

SOURCE = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "mlir"
    / "multi_func"
    / "tree_dir"
    / "builtin_module_no-symbol-name"
    / "func_func_reduce_sum"
    / "2_7_convert-scf-to-cf.mlir"
)
NESTED = [
    ("canonicalize", "Canonicalizer"),
    ("cse", "CSE"),
    ("loop-invariant-code-motion", "LoopInvariantCodeMotion"),
    ("canonicalize", "Canonicalizer"),
]
MODULE = [("inline", "Inliner"), ("sccp", "SCCP"), ("symbol-dce", "SymbolDCE")]
VALUE = re.compile(r"%(\d+)\b")


@dataclass
class Generated:
    path: Path
    files: int
    snapshot_lines: int  # lines of the last module
    changed: list[bool]  # per dump after the first: did it change the module


def templates() -> tuple[list[str], list[list[str]]]:
    """The module's declarations and its defined functions (each as lines) from the real dump."""
    lines = SOURCE.read_text().split("\n")[1:]
    declarations, functions, current = [], [], None
    for line in lines:
        if current is not None:
            current.append(line)
            if line == "  }":
                functions.append(current)
                current = None
        elif line.startswith("  func.func"):
            if line.rstrip().endswith("{"):
                current = [line]
            else:
                declarations.append(line)
    return declarations, functions


def generate(out: Path, functions: int = 18, rounds: int = 10, seed: int = 0, stream: bool = False) -> Generated:
    """The tree under `out`; with `stream`, the same dumps in the order they ran, as one file `out` (what
    --mlir-print-ir-after-all prints to stderr without a tree dir)."""
    rng = random.Random(seed)
    declarations, sources = templates()
    names = [f"kernel_{k}" for k in range(functions)]
    bodies = {}
    for k, name in enumerate(names):
        body = list(sources[k % len(sources)])
        bodies[name] = [re.sub(r"@(\w+)\(%", f"@{name}(%", body[0], count=1), *body[1:]]
    root = out / "builtin_module_no-symbol-name"
    if stream:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("")
    else:
        root.mkdir(parents=True, exist_ok=True)
    counters = dict.fromkeys(names, 0)
    changed: list[bool] = []
    files = 0
    last = None

    def module_text() -> str:
        return "\n".join(["module {", *declarations, *(line for n in names for line in bodies[n]), "}"]) + "\n"

    def write(path: Path, header: str) -> None:
        nonlocal files, last
        text = module_text()
        if stream:
            with out.open("a") as handle:
                handle.write(f"// -----// IR Dump After {header} //----- //\n{text}\n")
        else:
            path.write_text(f"// -----// IR Dump After {header} //----- //\n{text}\n")
        if last is not None:
            changed.append(text != last)
        files += 1
        last = text

    for k in range(rounds + 1):
        arg, cls = MODULE[k % len(MODULE)]
        write(root / f"{k}_{arg}.mlir", f"{cls} ({arg}) ('builtin.module' operation)")
        if k == rounds:
            break
        for name in names:
            folder = root / f"func_func_{name}"
            if not stream:
                folder.mkdir(exist_ok=True)
            for arg, cls in NESTED:
                mutate(bodies[name], rng, k)
                write(folder / f"{k}_{counters[name]}_{arg}.mlir", f"{cls} ({arg}) ('func.func' operation: @{name})")
                counters[name] += 1
    return Generated(out, files, module_text().count("\n"), changed)


def mutate(body: list[str], rng: random.Random, round_: int) -> None:
    """What one nested pass does to one function: mostly nothing, else renumber or a real change."""
    roll = rng.random()
    if roll < 0.6:
        return
    if roll < 0.8:  # renumber: every numbered value moves up by one, consistently
        body[:] = [VALUE.sub(lambda m: f"%{int(m.group(1)) + 1}", line) for line in body]
        return
    added = [i for i, line in enumerate(body) if "%c_gen" in line]
    if added and rng.random() < 0.5:
        del body[rng.choice(added)]
    elif rng.random() < 0.5:
        body.insert(1, f"    %c_gen{round_}_{rng.randrange(10**6)} = arith.constant {rng.randrange(4096)} : index")
    else:
        for i, line in enumerate(body):
            if "arith.constant" in line and "%c_gen" not in line and ": index" in line:
                body[i] = re.sub(r"constant \d+", f"constant {rng.randrange(1, 4096)}", line)
                break


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--functions", type=int, default=18)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stream", action="store_true", help="write the dumps as one stream file OUT, not a tree")
    args = parser.parse_args(argv)
    result = generate(args.out, args.functions, args.rounds, args.seed, args.stream)
    files = [args.out] if args.stream else list(args.out.rglob("*.mlir"))
    print(f"{result.files} dumps, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
