"""The report's model as the page carries it: safe JSON, gzip-compressed (deterministic: no time, no name),
base64 (render.decode_data reads it back).

Dumps are text-heavy; compressed, a report is several times smaller, and base64 cannot close its <script>
element whatever the dump says. The page inflates it with DecompressionStream. The JSON is compressed as it is
encoded, a batch at a time: the whole text never exists at once (it is several times the report's size), and
the bytes inflate to the whole text, escaped.

zlib lets go of the GIL while it compresses, so threads deflate batches on every core while this one encodes
the next. Each batch is deflated alone, primed with the end of the batch before it (as pigz does): the blocks
join into one gzip member about as small as the whole text deflated at once. Measured against isal's and
zlib-ng's threaded gzip (benchmarks/compression.py, figures in benchmarks/README.md).
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from .terminal import decodable_json

THREADS = 2  # the machines this runs on have two cores or more; more threads would mostly wait for the GIL
# bytes of JSON compressed at once; a few batches are held at a time. 1 MB, not 4: IREE mlp's encoding holds 6.5 MB,
# not 16, for 15 % more deflate CPU (55 ms of an 8 s report)
_BATCH = 1 << 20
_SLICE = 1024  # items of a long array encoded at once
_WINDOW = 32 * 1024  # deflate's window: the most of the previous batch that can prime the next
_GZIP_HEADER = bytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255])  # deflate, no flags, no time, OS unknown
_LAST_BLOCK = bytes([3, 0])  # an empty final block: the batches end on sync flushes
_JSON_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


def encode_data(data: object) -> str:
    """The data as the page's report-data element holds it: gzip_json, in base64."""
    return "".join(base64_pieces(gzip_pieces(data)))


def gzip_json(data: object) -> bytes:
    """The data's safe JSON as one gzip member, deflated a batch at a time on THREADS threads."""
    return b"".join(gzip_pieces(data))


def gzip_pieces(data: object) -> Iterator[bytes]:
    """gzip_json's bytes in pieces, each given as soon as it is deflated: the page is written as it is
    encoded, so neither the member nor its base64 is ever whole in memory (IREE mlp: 6 MB less at the end)."""
    yield _GZIP_HEADER
    crc, size = 0, 0
    with ThreadPoolExecutor(THREADS) as threads:  # results are taken in submission order
        pending: deque[Future[bytes]] = deque()
        primer = b""
        for batch in json_batches(data):
            crc, size = zlib.crc32(batch, crc), size + len(batch)
            pending.append(threads.submit(_deflate, batch, primer))
            primer = batch[-_WINDOW:]  # all that is kept of the batch once deflated
            del batch
            if len(pending) > THREADS:  # bounds what is held: one batch a thread and the next, queued
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    yield _LAST_BLOCK + struct.pack("<II", crc, size & 0xFFFFFFFF)  # RFC 1952: CRC-32 and length of the JSON


def base64_pieces(pieces: Iterable[bytes]) -> Iterator[str]:
    """The base64 of the pieces joined, in pieces: each cut at a multiple of 3 bytes, where base64 of the
    parts is base64 of the whole."""
    carry = b""
    for piece in pieces:
        joined = carry + piece
        cut = len(joined) - len(joined) % 3
        if cut:
            yield base64.b64encode(joined[:cut]).decode("ascii")
        carry = joined[cut:]
    if carry:
        yield base64.b64encode(carry).decode("ascii")


def _deflate(batch: bytes, primer: bytes) -> bytes:
    """The batch as raw deflate blocks, ending on a byte boundary so that the next batch's blocks can follow."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15, zdict=primer)  # an empty primer primes nothing
    return packer.compress(batch) + packer.flush(zlib.Z_SYNC_FLUSH)


def json_batches(data: object) -> Iterator[bytes]:
    """The data's safe JSON as UTF-8, in batches of about _BATCH bytes."""
    batch: list[bytes] = []
    size = 0
    for piece in _json_pieces(data):
        text = escaped(piece)
        try:
            batch.append(text.encode("utf-8"))
        except UnicodeEncodeError:  # a name that is not UTF-8: shown by its bytes
            batch.append(decodable_json(text).encode("utf-8"))
        size += len(batch[-1])
        if size >= _BATCH:
            yield _joined(batch)
            size = 0
    yield _joined(batch)


def _joined(pieces: list[bytes]) -> bytes:
    """The pieces as one batch, the list emptied: while the batch is deflated, its pieces are not kept."""
    batch = b"".join(pieces)
    pieces.clear()
    return batch


def _json_pieces(data: object) -> Iterator[str]:
    """The data's JSON text in pieces: objects member by member, long arrays a slice at a time."""
    if isinstance(data, dict) and all(isinstance(key, str) for key in data):
        yield "{"
        for i, (key, value) in enumerate(data.items()):
            yield ("," if i else "") + dumps(key) + ":"
            yield from _json_pieces(value)
        yield "}"
    elif isinstance(data, (list, tuple)) and len(data) > _SLICE:
        for i in range(0, len(data), _SLICE):
            yield ("[" if i == 0 else ",") + dumps(data[i : i + _SLICE])[1:-1]
        yield "]"
    else:
        yield dumps(data)


def dumps(data: object) -> str:
    """Compact JSON, as the page's data holds it (not yet escaped: see escaped)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def escaped(json_text: str) -> str:
    """JSON that cannot end its <script> element or open a comment: the one escaping boundary."""
    # str.replace per character is ~10x faster than str.translate with a table on megabytes of text
    for char, escape in _JSON_ESCAPES:
        if char in json_text:
            json_text = json_text.replace(char, escape)
    return json_text
