"""Where a directory of reports goes: never over, around or inside a directory being read, and replacing a
previous one only when everything in it was written by this tool (a manifest lists what a run wrote)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote

from . import __version__
from .errors import OutputError
from .index import MARKER
from .output import name_max, shorten
from .terminal import decodable

MANIFEST = ".pypto-ir-trace.json"  # every file a run wrote: all a later run may remove
_TEMP_EXTRA = len("..") + 8  # what a temporary name adds to the kept part of the directory's name


def check(target: Path, roots: Iterable[Path], index: str) -> None:
    """Refuse, before the long run, a destination that cannot take the directory or would lose data."""
    if not target.parent.is_dir():
        raise OutputError(f"output directory does not exist: {target.parent}")
    for root in roots:
        relation = _relation(target, root)
        if relation:
            raise OutputError(
                f"refusing to write the reports to {target}: it {relation} {root}, a directory "
                f"being read (give -o a directory outside the inputs)"
            )
    _check_replaceable(target, index)


def check_outside(path: Path, target: Path, roots: Iterable[Path], what: str) -> None:
    """Refuse a file written beside the directory of reports (a summary) that is, or lies in, that directory (a
    later run would refuse to replace a directory holding it) or a root being read."""
    for root, which in ((target, "the directory of reports"), *((root, "a directory being read") for root in roots)):
        if (relation := _relation(path, root)) in ("is", "is inside"):
            raise OutputError(
                f"refusing to write the {what} {path}: it {relation} {root}, {which} (give a path outside it)"
            )


def temporary(target: Path) -> Path:
    """A new private directory beside target, named within the file-name limit, to be published whole."""
    kept = shorten(target.name, name_max(target.parent) - _TEMP_EXTRA)
    for _ in range(100):  # a clash of 32 random bits is rare; a hundred in a row is a broken file system
        temp = target.with_name(f".{kept}.{secrets.token_hex(4)}")
        try:
            temp.mkdir(mode=0o700)
            return temp
        except FileExistsError:
            continue
        except OSError as err:  # name the directory the user gave, not our temporary one
            raise OutputError(f"cannot write the reports to {target}: {err.strerror or err}") from None
    raise OutputError(f"cannot write the reports to {target}: no free temporary name in {target.parent}")


def write(temp: Path, target: Path, name: str, text: str) -> None:
    """One file of the directory being built; a failure (a full disk) names where the reports were going."""
    try:
        (temp / name).write_text(text, encoding="utf-8")
    except OSError as err:
        raise OutputError(f"cannot write the reports to {target}: {err.strerror or err} (writing {name})") from None


def file_name(stem: str, suffix: str, directory: Path) -> str:
    """stem + suffix, a UTF-8 name fitting the file-name limit: a stem too long keeps its start, and a stem
    that is not UTF-8 is shown by its bytes (`\\xff`), each gaining a stable suffix of its digest, so that two
    long names that share a start, or a name of bytes and one spelling them out, stay apart and a rerun names
    them alike (links, summaries and the viewer take the name as it is)."""
    shown = decodable(stem)
    name = shown + suffix
    limit = name_max(directory)
    if shown == stem and len(os.fsencode(name)) <= limit:
        return name
    digest = "~" + hashlib.sha256(os.fsencode(stem)).hexdigest()[:10]
    return shorten(shown, limit - len(os.fsencode(digest + suffix))) + digest + suffix


def publish(temp: Path, target: Path, files: Iterable[str], index: str) -> None:
    """Write the manifest, then swap the new directory in; an old one (all ours, checked again now that the
    run is over) goes only once the new one is in place."""
    manifest = {"generator": f"pypto-ir-trace {__version__}", "files": sorted(files)}
    write(temp, target, MANIFEST, json.dumps(manifest, indent=1) + "\n")
    _check_replaceable(target, index)
    try:
        os.chmod(temp, 0o755)  # the directory is for sharing, like a report file
        _swap(temp, target)
    except OSError as err:
        raise OutputError(f"cannot write the reports to {target}: {err.strerror or err}") from None


def _swap(temp: Path, target: Path) -> None:
    if not target.exists():
        os.rename(temp, target)
        return
    old = temporary(target)
    os.rename(target, old / "previous")
    try:
        os.rename(temp, target)
    except OSError:
        os.rename(old / "previous", target)  # put the old one back: nothing lost
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def _relation(target: Path, root: Path) -> str:
    """How target and root overlap ("is", "contains", "is inside"), by every spelling: as written, through
    links, and by file identity (a bind mount); "" when they do not."""
    spellings = [
        (Path(os.path.abspath(target)), Path(os.path.abspath(root))),
        (Path(os.path.realpath(target)), Path(os.path.realpath(root))),
    ]
    for t, r in spellings:
        if t == r:
            return "is"
        if t in r.parents:
            return "contains"
        if r in t.parents:
            return "is inside"
    target_id, root_id = _identity(target), _identity(root)
    if target_id is not None and target_id == root_id:
        return "is"
    if target_id is not None and target_id in _ancestor_ids(root):
        return "contains"
    if root_id is not None and root_id in _ancestor_ids(target):
        return "is inside"
    return ""


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _ancestor_ids(path: Path) -> set[tuple[int, int]]:
    """The identities of the existing directories above path (resolved), path excluded."""
    return {found for parent in Path(os.path.realpath(path)).parents if (found := _identity(parent)) is not None}


def _check_replaceable(target: Path, index: str) -> None:
    """A directory may be replaced when it does not exist, is empty, or holds only what this tool wrote."""
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_dir():
        raise OutputError(
            f"refusing to replace {target}: not a directory this tool wrote "
            f"(give -o a new directory for the reports of many programs)"
        )
    try:
        entries = set(os.listdir(target))
        ours = _written(target, index)
    except OSError as err:
        raise OutputError(f"cannot replace {target}: {err.strerror or err}") from None
    if not entries:
        return
    if ours is None:
        raise OutputError(
            f"refusing to replace {target}: not an empty directory nor one this tool wrote "
            f"(give -o a new directory for the reports of many programs)"
        )
    foreign = sorted(name for name in entries - ours if name != MANIFEST)
    foreign += sorted(name for name in entries & ours if not (target / name).is_file() or (target / name).is_symlink())
    if foreign:
        raise OutputError(
            f"refusing to replace {target}: it holds {foreign[0]!r}, which this tool did not write "
            f"(move it out, or give -o a new directory)"
        )


def _written(target: Path, index: str) -> set[str] | None:
    """The files a previous run wrote in target, or None when target is not a directory of ours."""
    try:
        manifest = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return _legacy_written(target, index)
    except (ValueError, UnicodeDecodeError):
        return None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, list) or not all(isinstance(name, str) and name == Path(name).name for name in files):
        return None
    return set(files)


def _legacy_written(target: Path, index: str) -> set[str] | None:
    """A directory from before the manifest: its index page and the reports that page links to."""
    try:
        page = (target / index).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    if MARKER not in page[:4096]:
        return None
    return {index} | {unquote(link) for link in re.findall(r'<a href="([^"/]+\.html)">', page)}
