"""`python -m server.cli ...`: the same as `iridescia-server ...` (an MTA's pipe runs it so)."""

import sys

from server.cli import main

sys.exit(main())
