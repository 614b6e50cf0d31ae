"""Where a report's peak memory is reached: the process's peak RSS (VmHWM) when each phase of one render ends.

    python benchmarks/memory_phases.py DUMP [--baseline OTHER_RUN] [--src OTHER/src]

The CLI runs in a child process (so this one's memory is not counted), with builder.build and output.write
wrapped to read /proc/self/status as each begins and ends: reading the dump is what comes before the build; the
page is rendered as it is written (render.pieces), so the write is the render too. A phase's figure is the peak so far, so the phase that raised it
is the one whose figure is higher than the one before. Linux only (VmHWM). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bounds
import child

_CHILD = """
import json, sys
from pypto_ir_trace import builder, cli, output

def peak():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmHWM"))

marks = []
def marked(module, name):
    inner = getattr(module, name)
    def run(*args, **kwargs):
        marks.append((f"before {name}", peak()))
        try:
            return inner(*args, **kwargs)
        finally:
            marks.append((f"after {name}", peak()))
    setattr(module, name, run)

marked(builder, "build")
marked(output, "write")
cli.main(json.loads(sys.argv[1]))
marks.append(("end", peak()))
print(json.dumps(marks))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", type=Path)
    parser.add_argument("--baseline", type=Path, help="a second run: the report of two runs")
    parser.add_argument("--src", type=Path, default=bounds.SRC, help="the package's source tree to measure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = child.environment(args.src)
        arguments = [str(args.dump), *(["--baseline", str(args.baseline)] if args.baseline else [])]
        found = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps([*arguments, "-o", str(Path(tmp) / "report.html"), "-q"])],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
    print(f"{args.dump}: peak RSS (MB) when each phase ends")
    for phase, megabytes in json.loads(found.stdout.splitlines()[-1]):
        print(f"  {phase:<16} {megabytes:6d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
