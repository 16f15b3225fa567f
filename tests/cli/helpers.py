"""Inputs and checks shared by the command line's test modules: a tiny grid and list, one-line errors."""

from __future__ import annotations

# Rows CAB ORE WET and columns COW ARE BET (or the transpose) are the only fills of an open
# 3x3 from this list without repeating a word (CAT/ARE/TEN is a symmetric square, so it repeats).
TINY_LIST = "CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\nCAT;60\nTEN;60\n"
TINY_GRID = "; a tiny open grid\n...\n...\n...\n"
TINY_FILLS = (["CAB", "ORE", "WET"], ["COW", "ARE", "BET"])


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def assert_one_line_error(err: str, *needles: str):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]
