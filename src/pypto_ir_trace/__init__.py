"""pypto-ir-trace: a compiler's pass dumps rendered as one self-contained HTML diff report.

The public API is what this module exports (`__all__`): build_report and Report for one dump or two runs,
compare_programs and ProgramsSummary for two roots of many programs, merge_summaries for a root sharded
across CI jobs, and the errors they raise. Every submodule is internal and may change without notice.
"""

__version__ = "0.1.0"

from .api import ProgramResult, ProgramsSummary, Report, build_report, compare_programs, merge_summaries
from .dump import DumpError
from .errors import IRTraceError
from .output import OutputError
from .programs import UsageError
from .summary import VERSION as SUMMARY_VERSION
from .summary import SummaryError
from .summary import schema as summary_schema
from .workers import WorkerDied

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
