"""The package's errors: every failure a caller can act on is an IRTraceError, with a one-line message."""

from __future__ import annotations


class IRTraceError(Exception):
    """The base of the package's errors; its message is one line for the user."""
