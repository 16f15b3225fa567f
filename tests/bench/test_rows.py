"""Bench rows on disk (xwcp/bench/rows.py): rows.csv gets the header at once and each row appended as it comes,
rows.json is rewritten whole after each row; every row has exactly the columns, in their order."""

from __future__ import annotations

import csv
import json

from xwcp.bench.rows import ANSWERED, COLUMNS, STATUSES, RowWriter


def _csv_rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_header_first_then_each_row_as_it_comes(tmp_path):
    writer = RowWriter(tmp_path / "out")  # the folder is made
    assert _csv_rows(writer.csv_path) == [list(COLUMNS)]
    assert json.loads(writer.json_path.read_text()) == []
    writer.add({"grid": "open3", "backend": "backtrack", "status": "filled", "seconds": 0.5, "valid": True})
    rows = _csv_rows(writer.csv_path)  # flushed: readable before close
    assert len(rows) == 2
    by_column = dict(zip(COLUMNS, rows[1]))
    assert (by_column["grid"], by_column["status"], by_column["seconds"], by_column["valid"]) == (
        "open3",
        "filled",
        "0.5",
        "True",
    )
    assert by_column["nodes"] == ""  # a missing field is empty in the CSV ...
    [saved] = json.loads(writer.json_path.read_text())
    assert list(saved) == list(COLUMNS) and saved["nodes"] is None and saved["seconds"] == 0.5  # ... and null in JSON
    writer.add({"grid": "wor-zero", "status": "unfillable", "not_a_column": 1})
    saved = json.loads(writer.json_path.read_text())
    assert [r["grid"] for r in saved] == ["open3", "wor-zero"] and "not_a_column" not in saved[1]
    assert writer.rows == saved
    writer.close()
    writer.close()  # closing twice is harmless
    assert len(_csv_rows(writer.csv_path)) == 3
    assert not list((tmp_path / "out").glob("*.tmp"))  # the JSON's temporary file was moved into place


def test_answered_statuses_are_statuses():
    assert set(ANSWERED) <= set(STATUSES) and "status" in COLUMNS and len(set(COLUMNS)) == len(COLUMNS)
