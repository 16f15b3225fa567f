"""The grid and lists a command names (`xwcp.cli.inputs`): the constructor's controls from the options, the word
lists with the personal list layered last under --personal (a warning when there is none yet), and the problem
compiled with them."""

from __future__ import annotations

import argparse
import json

from tests.cli.helpers import TINY_GRID, TINY_LIST, write
from xwcp.cli import inputs
from xwcp.cli.output import clear_warnings
from xwcp.words import userwords


def _args(**options) -> argparse.Namespace:
    """The options `xwcp fill` parses, with no control given."""
    values: dict[str, object] = {
        "words": None,
        "personal": False,
        "min_score": 50,
        "allow_dupes": False,
        "strict": False,
        "lock": [],
        "ban": [],
        "ban_file": [],
        "slot_min": [],
        "region": None,
        "max_shared_substring": None,
        "filter": [],
        "distinct_stems": None,
        "no_crossing": [],
        "tag": [],
        "names_from": None,
    }
    return argparse.Namespace(**{**values, **options})


def test_controls_are_the_options_normalised(tmp_path):
    bans = write(tmp_path, "bans.txt", "esne\nAREA\n")
    made = inputs.controls(
        _args(
            lock=["1a=cab"],
            ban=["ore"],
            ban_file=[str(bans)],
            slot_min=["4A=70"],
            region="1,1:2,3",
            max_shared_substring=4,
        )
    )
    assert dict(made.locks) == {"1A": "CAB"}
    assert made.bans == {"ORE", "ESNE", "AREA"}
    assert dict(made.min_score_by_slot) == {"4A": 70}
    assert made.region == (1, 1, 2, 3) and made.max_shared_substring == 4


def test_no_controls_give_empty_controls():
    made = inputs.controls(_args())
    assert not made.locks and not made.bans and not made.min_score_by_slot
    assert made.region is None and made.max_shared_substring is None


def test_word_paths_without_personal_are_the_words_given():
    assert inputs.word_paths(_args()) is None
    assert inputs.word_paths(_args(words=["a.txt", "b.txt"])) == ["a.txt", "b.txt"]


def test_personal_list_is_layered_last(tmp_path):
    userwords.update_personal({"AXQZ": 99})
    path = str(userwords.personal_path())
    assert inputs.word_paths(_args(personal=True, words=["a.txt"])) == ["a.txt", path]
    assert inputs.word_paths(_args(personal=True)) == [None, path]  # None: the default list under it


def test_personal_without_a_list_warns_and_keeps_the_words(capsys):
    clear_warnings()
    assert not userwords.personal_path().exists()
    assert inputs.word_paths(_args(personal=True, words=["a.txt"])) == ["a.txt"]
    err = capsys.readouterr().err
    assert err.startswith("xwcp: warning: no personal word list yet") and str(userwords.personal_path()) in err


def test_load_puzzle_compiles_the_grid_with_the_options(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid, words = write(tmp_path, "g.txt", TINY_GRID), write(tmp_path, "w.txt", TINY_LIST)
    puzzle, problem = inputs.load_puzzle(_args(grid=str(grid), words=[str(words)], lock=["1A=CAB"]))
    assert puzzle.grid.rows == ["...", "...", "..."]  # the file as read
    assert problem.grid.rows[0] == "CAB"  # the lock written into the problem's grid
    assert [s.name for s in problem.slots] == ["1A", "4A", "5A", "1D", "2D", "3D"]
    assert problem.words.score("CAB") == 60 and problem.min_score == 50
    assert inputs.load_problem(_args(grid=str(grid), words=[str(words)], min_score=61)).min_score == 61


def test_cli_personal_layers_the_list(tmp_path, capsys):
    from xwcp.cli.commands import main

    grid = tmp_path / "g.txt"
    grid.write_text("A...\n....\n....\n....\n")
    userwords.update_personal({"AXQZ": 99})
    assert main(["suggest", str(grid), "--slot", "1A", "--personal", "--format", "json", "-k", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["words"][0]["word"] == "AXQZ"
    assert main(["suggest", str(grid), "--slot", "1A", "--format", "json", "-k", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["words"][0]["word"] != "AXQZ"
