"""pypto-ir-trace: a compiler's pass dumps rendered as one self-contained HTML diff report.

The public API is what this module exports (`__all__`): build_report and Report for one dump or two runs,
compare_programs and ProgramsSummary for two roots of many programs, merge_summaries for a root sharded
across CI jobs, and the errors they raise. Every submodule is internal and may change without notice.
"""

__version__ = "0.1.0"

from typing import TYPE_CHECKING

from .lazy import exports as _exports

# Each export's module, imported when the name is first used (PEP 562): `--version`, and a run that compares no
# two roots, import only what they use.
_EXPORTS = {
    "DumpError": ("errors", "DumpError"),
    "IRTraceError": ("errors", "IRTraceError"),
    "OutputError": ("errors", "OutputError"),
    "ProgramResult": ("api", "ProgramResult"),
    "ProgramsSummary": ("api", "ProgramsSummary"),
    "Report": ("api", "Report"),
    "SUMMARY_VERSION": ("summary", "VERSION"),
    "SummaryError": ("errors", "SummaryError"),
    "UsageError": ("errors", "UsageError"),
    "WorkerDied": ("errors", "WorkerDied"),
    "build_report": ("api", "build_report"),
    "compare_programs": ("api", "compare_programs"),
    "merge_summaries": ("api", "merge_summaries"),
    "summary_schema": ("summary", "schema"),
}

if TYPE_CHECKING:
    from .api import ProgramResult, ProgramsSummary, Report, build_report, compare_programs, merge_summaries
    from .errors import DumpError, IRTraceError, OutputError, SummaryError, UsageError, WorkerDied
    from .summary import VERSION as SUMMARY_VERSION
    from .summary import schema as summary_schema


__getattr__ = _exports(__name__, _EXPORTS, globals())


__all__ = [
    "SUMMARY_VERSION",
    "DumpError",
    "IRTraceError",
    "OutputError",
    "ProgramResult",
    "ProgramsSummary",
    "Report",
    "SummaryError",
    "UsageError",
    "WorkerDied",
    "__version__",
    "build_report",
    "compare_programs",
    "merge_summaries",
    "summary_schema",
]
