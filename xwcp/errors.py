"""The one exception type for bad user input, carrying the file and line it came from."""
from __future__ import annotations


class InputError(Exception):
    """Bad input from the user: a grid, word list or option that cannot be used.

    Its `str()` is one line: `file:line: problem` (line omitted when not known).
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = f"{self.source}:{self.line}: " if self.line is not None else f"{self.source}: "
        return f"{where}{self.message}"
