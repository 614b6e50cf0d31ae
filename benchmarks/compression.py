"""How the report's data is compressed: the package's encoder against well-kept libraries, on the same JSON.

    python benchmarks/compression.py                       # large, xlarge, and qwen3 under /tmp/dumps if present
    python benchmarks/compression.py --cases large /tmp/dumps/models_qwen3_decode_explicit

Each candidate turns the report's model into gzip bytes the page can inflate, JSON encoding included (the
package's own batches of safe JSON, so only the compression differs); the medians of --rounds of the wall
time and of the CPU time of every thread (what a loaded machine charges), candidates alternated round by round. A library that is not installed (`pip install isal zlib-ng`)
is left out with a line. Every output is inflated and checked against the JSON. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import gzip
import io
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

from pypto_ir_trace import builder, pagedata
from pypto_ir_trace.formats import load
from pypto_ir_trace.model import to_json
from run import case_dump

DEFAULT_DUMPS = [Path(f"/tmp/dumps/models_qwen3_decode_{level}/passes_dump") for level in ("explicit", "concise")]
THREADS = pagedata.THREADS


def _stream(data: object) -> Iterable[bytes]:
    return pagedata.json_batches(data)


def _package(data: object) -> bytes:
    return pagedata.gzip_json(data)


def _zlib_one_thread(data: object) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: a gzip wrapper
    return b"".join([*(packer.compress(batch) for batch in _stream(data)), packer.flush()])


def _threaded(opener: Callable, level: int) -> Callable[[object], bytes]:
    def compress(data: object) -> bytes:
        out = io.BytesIO()
        with opener(out, "wb", compresslevel=level, threads=THREADS) as writer:
            for batch in _stream(data):
                writer.write(batch)
        return out.getvalue()

    return compress


def _one_thread(module, level: int) -> Callable[[object], bytes]:
    def compress(data: object) -> bytes:
        packer = module.compressobj(level, module.DEFLATED, 31)
        return b"".join([*(packer.compress(batch) for batch in _stream(data)), packer.flush()])

    return compress


def candidates() -> dict[str, Callable[[object], bytes]]:
    found = {
        f"package (pagedata, {THREADS} threads)": _package,
        "stdlib zlib 6, one thread": _zlib_one_thread,
    }
    try:
        from zlib_ng import gzip_ng_threaded, zlib_ng

        found["zlib-ng 6, one thread"] = _one_thread(zlib_ng, 6)
        found[f"zlib-ng 6, gzip_ng_threaded, {THREADS} threads"] = _threaded(gzip_ng_threaded.open, 6)
    except ImportError:
        print("zlib-ng is not installed: left out", file=sys.stderr)
    try:
        from isal import igzip_threaded, isal_zlib

        found["isal 3, one thread"] = _one_thread(isal_zlib, 3)
        for level in (2, 3):
            found[f"isal {level}, igzip_threaded, {THREADS} threads"] = _threaded(igzip_threaded.open, level)
    except ImportError:
        print("isal is not installed: left out", file=sys.stderr)
    return found


def measure(dump: Path, rounds: int) -> None:
    start = time.perf_counter()
    data = to_json(builder.build(load(dump, None), 3))
    built = time.perf_counter() - start
    text = b"".join(_stream(data))
    found = candidates()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in found}
    sizes: dict[str, int] = {}
    json_times = []
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        for _batch in _stream(data):
            pass
        json_times.append((time.perf_counter() - start, time.process_time() - cpu))
        for name, compress in found.items():
            start, cpu = time.perf_counter(), time.process_time()
            out = compress(data)
            times[name].append((time.perf_counter() - start, time.process_time() - cpu))
            sizes[name] = len(out)
    for name, compress in found.items():
        assert gzip.decompress(compress(data)) == text, name
    print(f"\n{dump}: model built in {built:.1f} s, JSON {len(text) / 1e6:.1f} MB")
    print("| candidate | wall ms | CPU ms | KB |\n| --- | ---: | ---: | ---: |")
    print(f"| the JSON alone, no compression | {_ms(json_times)} | |")
    for name in found:
        print(f"| {name} | {_ms(times[name])} | {sizes[name] / 1024:,.0f} |")


def _ms(rounds: list[tuple[float, float]]) -> str:
    """The medians of the wall and the CPU times, as two table cells."""
    return " | ".join(f"{statistics.median(part) * 1000:,.0f}" for part in zip(*rounds))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dumps", nargs="*", type=Path, help="dumps to measure besides the cases (default: qwen3)")
    parser.add_argument("--cases", default="large,xlarge", help="synthetic cases of run.py (default: large,xlarge)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "ir-trace-compression")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    dumps = [case_dump(args.workdir, name, args.seed) for name in filter(None, args.cases.split(","))]
    for dump in args.dumps or DEFAULT_DUMPS:
        if dump.exists():
            dumps.append(dump)
        else:
            print(f"{dump} is not there: skipped", file=sys.stderr)
    for dump in dumps:
        measure(dump, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
