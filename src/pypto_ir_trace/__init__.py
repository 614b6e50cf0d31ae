"""pypto-ir-trace: a PyPTO passes_dump/ rendered as one self-contained HTML diff report."""

__version__ = "0.1.0"
