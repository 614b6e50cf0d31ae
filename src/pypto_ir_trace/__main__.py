"""`python -m pypto_ir_trace`: the same arguments and exit codes as the console script."""

import sys

from .cli import main

sys.exit(main())
