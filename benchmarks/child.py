"""How a benchmark runs the CLI it times: with the package's modules compiled beforehand, as installed.

pip compiles a package's modules when it installs them. A source tree run with PYTHONDONTWRITEBYTECODE set (as it
is on these machines) compiles every module from its source on every run instead: 0.6 G instructions, about
0.1 s, most of the start-up, and more for a tree whose modules are not cached than for one whose are. So each
tree's bytecode is written once, beside its modules as pip writes it, and every timed run reads it. (Not into a
PYTHONPYCACHEPREFIX: the interpreter would then compile the standard library's modules there on the first run.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def environment(src: Path = SRC) -> dict[str, str]:
    """The environment of a timed run of the package in `src`, whose modules are then compiled."""
    return dict(_compiled(Path(src).resolve()))


@cache
def _compiled(src: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], env=env, check=True, stdout=subprocess.DEVNULL)
    return env
