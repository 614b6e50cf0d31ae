"""Where the report goes: put the rendered report where the user asked, losing nothing."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import OutputError

STDOUT = "-"
_NAME_MAX = 255  # when the file system will not say
_SLICE = 1 << 20  # characters of a text encoded and written at once
_TEMP_EXTRA = len("..") + 8 + len(".tmp")  # what a temporary name adds to the kept part of the report's name


def dump_files(dump) -> list[Path]:
    """The files a run reads: every snapshot and the .log beside it (a report written there would become one),
    and any other file the dump was read from (an MLIR stream holds every snapshot)."""
    files = list(dump.files)
    for snapshot in dump.snapshots:
        if snapshot.path is not None:
            files += [snapshot.path, snapshot.path.with_suffix(".log")]
    return files


def check(
    path: str, keep: Iterable[Path] = (), *, what: str = "report", option: str = "-o", kept: str = "a file of the dump"
) -> None:
    """Refuse, before the long render, a destination that cannot take the report or is one of the files in keep;
    what: the file to be written, option: how it was given, kept: what a file of keep is, in the message."""
    if path == STDOUT:
        return
    _kind(path)
    found = _stat(path)
    # An existing destination is a file of keep when it is the same file (a link, a hard link); a new one when
    # it is where a file of keep would be (a .log a pass may write): one stat, or one lstat, per file of keep.
    if found is not None:
        clash = next((file for file in keep if _same_file(found, file)), None)
    else:
        target = os.path.realpath(path)
        folders: dict[str, str] = {}
        clash = next((file for file in keep if _real(file, folders) == target), None)
    if clash is not None:
        raise OutputError(f"refusing to write the {what} over {clash}, {kept} being read ({option} {path})")


def _real(file: Path, folders: dict[str, str]) -> str:
    """os.path.realpath(file), its folder resolved once (a dump's thousands of files share a few folders: 0.3 s
    for 2,411 dumps, one by one)."""
    folder, name = os.path.split(file)
    if folder not in folders:
        folders[folder] = os.path.realpath(folder)
    joined = os.path.join(folders[folder], name)
    return os.path.realpath(joined) if os.path.islink(joined) else joined


def write(path: str, text: str | Iterable[str]) -> bool:
    """Put the report (a text, or its pieces in order: never held whole) at path: '-' is stdout, an existing
    device or FIFO is written in place, anything else (a new file, a regular file, the end of a chain of
    symlinks) is replaced atomically. False when stdout's reader left before the whole report reached it."""
    # A text is written a slice at a time: its UTF-8 is not held beside it whole (a 1.8 MB page, 1.8 MB more)
    pieces = (text[at : at + _SLICE] for at in range(0, len(text), _SLICE)) if isinstance(text, str) else text
    if path == STDOUT:
        with reader_may_leave() as delivery:
            _write_stdout(pieces)
        return delivery.whole
    data = (piece.encode("utf-8") for piece in pieces)
    if (kind := _kind(path)) != "file":
        _write_in_place(path, data, kind)
    else:
        _replace(path, data)
    return True


@dataclass
class Delivery:
    whole: bool = True  # False once stdout's reader has gone


@contextlib.contextmanager
def reader_may_leave() -> Iterator[Delivery]:
    """Stdout's reader may stop early (`| head`): then end quietly, as shell tools do, not with an error."""
    delivery = Delivery()
    try:
        yield delivery
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        delivery.whole = False
        # Python flushes stdout again at exit; a closed stdout is skipped instead of failing once more
        with contextlib.suppress(OSError):
            sys.stdout.close()


def _kind(path: str) -> str:
    """ "file" for a regular or new file, "FIFO" or "device" for one written in place; any other is an error."""
    parent = Path(path).parent
    if not parent.is_dir():
        raise OutputError(f"output directory does not exist: {parent}")
    found = _stat(path)
    if found is None:
        target = Path(os.path.realpath(path))
        if not target.parent.is_dir():  # a dangling symlink into a missing directory
            raise OutputError(f"cannot write the report {path}: it links to {target}, whose directory does not exist")
        return "file"
    mode = found.st_mode
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode):
        return "device"
    if stat.S_ISDIR(mode):
        raise OutputError(f"output path is a directory: {path}")
    what = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file"
    raise OutputError(f"cannot write the report {path}: it is {what}")


def _stat(path: str | Path) -> os.stat_result | None:
    """The file path leads to, through every symlink; None when there is none yet."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as err:  # a symlink loop, a file used as a directory, no permission
        raise OutputError(f"cannot write the report {path}: {err.strerror or err}") from None


def _same_file(found: os.stat_result, file: Path) -> bool:
    try:
        other = os.stat(file)
    except OSError:
        return False
    return (found.st_dev, found.st_ino) == (other.st_dev, other.st_ino)


def _write_stdout(pieces: Iterable[str]) -> None:
    if sys.stdout is None:
        raise OutputError("cannot write the report to stdout: it is closed")
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # a text stream a caller put in place (contextlib.redirect_stdout)
        for piece in pieces:
            sys.stdout.write(piece)
        return
    sys.stdout.flush()  # anything already printed goes first
    for piece in pieces:
        binary.write(piece.encode("utf-8"))  # UTF-8 whatever the locale says: the page declares it
    binary.flush()


def _write_in_place(path: str, data: Iterable[bytes], kind: str) -> None:
    """Open without creating or truncating: a device or FIFO is the user's, never replaced by a file."""
    try:
        # Non-blocking so that a FIFO nobody reads fails at once (ENXIO) instead of hanging the run.
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as err:
        if err.errno == errno.ENXIO and kind == "FIFO":
            raise OutputError(f"cannot write the report {path}: no process is reading that FIFO") from None
        raise OutputError(f"cannot write the report {path}: {err.strerror or err}") from None
    try:
        os.set_blocking(fd, True)  # a reader exists: now wait for it as a shell redirection would
        with open(fd, "wb", closefd=False) as stream:
            stream.writelines(data)
    except OSError as err:
        raise OutputError(f"cannot write the report {path}: {err.strerror or err}") from None
    finally:
        os.close(fd)


def _replace(path: str, data: Iterable[bytes]) -> None:
    """Write a temporary file beside the real target and rename it over that target, so a failure never
    leaves a partial report and a symlink stays a symlink."""
    target = Path(os.path.realpath(path))
    previous = _stat(target)
    try:
        fd, temp = _create_temp(target)
    except OSError as err:
        raise OutputError(f"cannot write the report {path}: {err.strerror or err}") from None
    try:
        if previous is not None:  # replacing a report keeps the permissions its owner chose
            os.fchmod(fd, stat.S_IMODE(previous.st_mode))
        with open(fd, "wb", closefd=False) as stream:
            stream.writelines(data)
        os.fsync(fd)  # the data is on disk before the rename makes it the report
        os.close(fd)
        fd = -1
        os.replace(temp, target)
    except BaseException as err:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(err, OSError):  # name the report the user asked for, not our temporary file
            raise OutputError(f"cannot write the report {path}: {err.strerror or err}") from None
        raise


def _create_temp(target: Path) -> tuple[int, Path]:
    """A new file beside target, named within the file-name limit, created with 0666 less the umask."""
    kept = shorten(target.name, name_max(target.parent) - _TEMP_EXTRA)
    for _ in range(100):  # a clash of 32 random bits is rare; a hundred in a row is a broken file system
        temp = target.with_name(f".{kept}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(target.parent))


def name_max(directory: Path) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        return _NAME_MAX


def shorten(name: str, limit: int) -> str:
    """The longest prefix of name whose file-system bytes fit in limit."""
    while len(os.fsencode(name)) > max(limit, 0):
        name = name[:-1]
    return name
