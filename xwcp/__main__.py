"""Run the command-line interface: `python -m xwcp`."""

import sys

from xwcp.cli.commands import main

sys.exit(main())
