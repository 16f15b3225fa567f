"""The command line's exit codes: what each outcome of a command tells the shell.

0 done, 1 proven unfillable, 2 bad input or usage, 3 limit reached without an answer,
70 internal error (a bug: one line, the traceback with XWCP_DEBUG=1), 128 + N stopped by signal N
(130 Ctrl-C, 143 SIGTERM, 129 SIGHUP; see xwcp.runtime.signals).
"""

from __future__ import annotations

EXIT_OK, EXIT_UNFILLABLE, EXIT_BAD_INPUT, EXIT_LIMIT = 0, 1, 2, 3
EXIT_INTERNAL = 70
"""An internal error (a bug), as in sysexits.h: never confused with an answer."""
EXIT_INTERRUPTED = 130
"""Ctrl-C; another stop signal N exits 128 + N."""
