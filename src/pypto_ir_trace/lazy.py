"""A package's exports imported from their modules when first used (PEP 562): `--version`, and a run that reads
one format, import only what they use."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def exports(package: str, found_in: dict[str, tuple[str, str]], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The package's module `__getattr__`: name -> (its module in the package, its name there), kept in the
    package's namespace once imported."""

    def __getattr__(name: str) -> Any:
        if name not in found_in:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = found_in[name]
        value = getattr(import_module(f"{package}.{module}"), attribute)
        namespace[name] = value
        return value

    return __getattr__
