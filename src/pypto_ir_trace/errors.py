"""The package's errors: every failure a caller can act on is an IRTraceError, with a one-line message; its kind
says what failed. The command line maps them to exit codes (UsageError: 2, the others: 1)."""

from __future__ import annotations


class IRTraceError(Exception):
    """The base of the package's errors; its message is one line for the user."""


class DumpError(IRTraceError):
    """The dump or one of its files cannot be used; the message is one line for the user."""


class OutputError(IRTraceError):
    """The report cannot go where the user asked; the message is one line for the user."""


class SummaryError(IRTraceError):
    """A summary to merge cannot be read or does not fit the others; one line for the user."""


class UsageError(IRTraceError):
    """The two sides cannot be compared as given (an argument error, exit 2); one line for the user."""


class WorkerDied(IRTraceError):
    """A worker process could not start, or ended without returning its task's result."""
