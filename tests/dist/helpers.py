"""Inputs and checks shared by the tests of xwcp/dist: tiny grids and a list, a plan over them, result files checked."""
from __future__ import annotations

import json
from pathlib import Path

from xwcp.compile.problem import compile_problem
from xwcp.dist import batch
from xwcp.services.load import LoadOptions
from xwcp.engine.result import check_fill
from xwcp.model import parse_grid, read_grid

from tests.helpers import entries_of

WORDS = ("CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\nCAT;60\nTEN;60\n"
         "AB;50\nCD;50\nAC;50\nBD;50\n"
         "WORD;50\nWORK;50\nZERO;50\nABCZ;50\nDEFE;50\nGHIR;50\nADGW;50\nBEHO;50\nCFIR;50\n")
GRIDS = {"open3": "...\n...\n...\n", "open2": "..\n..\n", "prefilled": "C..\n...\n...\n",
         "wor-zero": "...Z\n...E\n...R\nWOR.\n"}
SLOW_GRID = "\n".join(["." * 15] * 15) + "\n"


def plan(inputs, *paths, **options):
    options.setdefault("backend", "backtrack")
    options.setdefault("time_limit_s", 10.0)
    return batch.plan_batch([str(p) for p in paths or [inputs["grids"]]], out_dir=inputs["out"],
                            words_path=str(inputs["words"]), options=LoadOptions(min_score=0), **options)


def assert_files_hold_valid_fills(out_dir: Path, records: dict, words) -> None:
    for name, record in records.items():
        saved = json.loads((out_dir / f"{name}.json").read_text(encoding="utf-8"))
        assert saved["status"] == record["status"]
        if record["status"] == "filled":
            filled = read_grid(out_dir / f"{name}.txt")
            problem = compile_problem(parse_grid(Path(record["source"]).read_text()), words, min_score=0)
            assert check_fill(problem, entries_of(problem, filled.rows)) == []
            assert filled.rows == saved["grid"]
        else:
            assert not (out_dir / f"{name}.txt").exists()
