"""Bench rows: their columns and statuses, written to rows.csv and rows.json as they come."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from xwcp.runtime.writes import write_output

Row = dict[str, Any]
"""A bench row, or a run's measured fields: column name to a JSON value."""

COLUMNS = (
    "suite",
    "grid",
    "width",
    "height",
    "blocks",
    "slots",
    "words",
    "backend",
    "kind",
    "seed",
    "status",
    "seconds",
    "nodes",
    "backtracks",
    "peak_rss_mb",
    "valid",
    "note",
    "min_score",
    "time_limit_s",
    "start_rss_mb",
)
"""Row fields, in CSV column order (see bench/README.md for what each means)."""
FILLED, UNFILLABLE, SKIPPED, ERROR = "filled", "unfillable", "skipped", "error"
"""A row's status as the CSV writes it: a fill's FillStatus value, or a run skipped or broken."""
STATUSES = (FILLED, UNFILLABLE, "limit", "aborted", SKIPPED, ERROR)
ANSWERED = (FILLED, UNFILLABLE)
"""Statuses that settle an instance: a fill, or a proof that none exists."""


class RowWriter:
    """Writes rows as they come: appended + flushed to rows.csv, rewritten atomically to rows.json."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        out_dir.mkdir(parents=True, exist_ok=True)
        self.rows: list[Row] = []
        self.csv_path = out_dir / "rows.csv"
        self.json_path = out_dir / "rows.json"
        self._csv_file = self.csv_path.open("w", newline="", encoding="utf-8")
        self._csv = csv.DictWriter(self._csv_file, fieldnames=COLUMNS)
        self._csv.writeheader()
        self._csv_file.flush()
        self._write_json()

    def add(self, row: Row) -> None:
        row = {name: row.get(name) for name in COLUMNS}
        self.rows.append(row)
        self._csv.writerow({k: ("" if v is None else v) for k, v in row.items()})
        self._csv_file.flush()
        self._write_json()

    def _write_json(self) -> None:
        write_output(self.json_path, json.dumps(self.rows, indent=1) + "\n", "bench result")

    def close(self) -> None:
        if not self._csv_file.closed:
            self._csv_file.close()
