"""Writes fixtures/runs/exp2: two runs of a softmax kernel, this one lowering exp as exp2 (pass 01 on), which
later gives its buffer another address (pass 04 on). `python tests/make_exp2_runs.py` rewrites them."""

from __future__ import annotations

import shutil
from pathlib import Path

HEAD = """# pypto.program: softmax
import pypto.language as pl

@pl.program
class softmax:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
"""
TAIL = """    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        y: pl.Tensor[[16, 64], pl.FP32] = self.kernel(x, out)
        return y
"""
FRONT = """        m: pl.Tensor[[16, 1], pl.FP32] = pl.row_max(x)
        a: pl.Tensor[[16, 64], pl.FP32] = pl.sub(x, m)
        e: pl.Tensor[[16, 64], pl.FP32] = pl.exp(a)
        s: pl.Tensor[[16, 1], pl.FP32] = pl.row_sum(e)
        y: pl.Tensor[[16, 64], pl.FP32] = pl.div(e, s)
        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.assemble(out, y, [0, 0])
        return out_1
"""
# each tile's name, shape and op
TILES = [
    ("x__tile", "[16, 64]", "pl.tile.load(x, [0, 0], [16, 64])"),
    ("m__tile", "[16, 1]", "pl.tile.row_max(x__tile)"),
    ("a__tile", "[16, 64]", "pl.tile.sub(x__tile, m__tile)"),
    ("e__tile", "[16, 64]", "pl.tile.exp(a__tile)"),
    ("s__tile", "[16, 1]", "pl.tile.row_sum(e__tile)"),
    ("y__tile", "[16, 64]", "pl.tile.div(e__tile, s__tile)"),
]
SIZES = {"[16, 64]": 4096, "[16, 1]": 64}
MEM_INIT = [0, 1, 2, 3, 4, 5]  # InitMemRef: a buffer per tile
MEM_REUSE = [0, 1, 0, 2, 4, 2]  # MemoryReuse: a reuses x's buffer, y reuses e's
ADDRESS = {0: 0, 1: 4096, 2: 8192, 4: 12288}  # AllocateMemoryAddr, per buffer


def tiles(memory, addresses, simplified=False):
    lines = []
    for k, (name, shape, op) in enumerate(TILES):
        if simplified and name == "y__tile":
            op = "pl.tile.row_expand_div(e__tile, s__tile)"
        ref = ""
        if memory is not None:
            buffer = memory[k]
            ref = f"pl.MemRef(mem_vec_{buffer}, pl.const({addresses.get(buffer, 0) if addresses else 0}, pl.INT64), {SIZES[shape]}), "
        lines.append(f"        {name}: pl.Tile[{shape}, pl.FP32, {ref}pl.Mem.Vec] = {op}\n")
    if not simplified:
        lines.append("        unused: pl.Scalar[pl.INDEX] = 0\n")
    lines.append("        out_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(y__tile, [0, 0], out)\n")
    lines.append("        return out_1\n")
    return "".join(lines)


SNAPSHOTS = [
    ("00_frontend.py", FRONT),
    ("01_after_ConvertTensorToTileOps.py", tiles(None, None)),
    ("02_after_InitMemRef.py", tiles(MEM_INIT, None)),
    ("03_after_MemoryReuse.py", tiles(MEM_REUSE, None)),
    ("04_after_AllocateMemoryAddr.py", tiles(MEM_REUSE, ADDRESS)),
    ("05_after_Simplify.py", tiles(MEM_REUSE, ADDRESS, simplified=True)),
]


def write(root: Path, this: bool) -> None:
    dump = root / "passes_dump"
    dump.mkdir(parents=True)
    for index, (name, body) in enumerate(SNAPSHOTS):
        if this and index >= 1:
            body = body.replace("pl.tile.exp(", "pl.tile.exp2(")
        if this and index >= 4:
            body = body.replace("mem_vec_2, pl.const(8192,", "mem_vec_2, pl.const(16384,")
        (dump / name).write_text(HEAD + body + TAIL, encoding="utf-8")


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / "exp2"
    shutil.rmtree(out, ignore_errors=True)
    write(out / "baseline", False)
    write(out / "this", True)


if __name__ == "__main__":
    main()
