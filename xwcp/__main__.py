"""Run the command-line interface: `python -m xwcp`."""
import sys

from xwcp.cli import main

sys.exit(main())
