"""A variety puzzle's own clue lists and printed cell labels through xwcp's .json (the builder's format): every
published variety file xwcp opens gives, written as .json and read again, the same grid, clues, lists and labels,
and so does the .ipuz and .jpz written from that .json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xwcp.base.errors import InputError
from xwcp.formats import read_puzzle, write_puzzle
from xwcp.model.puzzle import CellLabel, ListedClue

VARIETY = Path(__file__).resolve().parents[1] / "data" / "puzzles" / "variety"
FILES = sorted(p.name for p in VARIETY.iterdir() if p.suffix in (".ipuz", ".jpz"))


def _same(back, original) -> None:
    assert back.grid == original.grid
    assert back.clue_by_slot == original.clue_by_slot
    assert back.clue_lists == original.clue_lists
    assert back.cell_labels == original.cell_labels
    assert (back.title, back.author, back.copyright, back.notes) == (
        original.title,
        original.author,
        original.copyright,
        original.notes,
    )


@pytest.mark.parametrize("name", FILES)
def test_json_keeps_a_variety_files_lists_and_labels(tmp_path, name):
    original = read_puzzle(VARIETY / name)
    assert original.clue_lists  # every file in the folder has its own lists
    saved = tmp_path / "page.json"
    write_puzzle(original, saved)
    back = read_puzzle(saved)
    _same(back, original)
    for fmt in ("ipuz", "jpz"):
        again = tmp_path / f"again.{fmt}"
        write_puzzle(back, again)
        _same(read_puzzle(again), original)


def test_json_lists_name_entries_and_give_cells_of_clues_on_no_entry(tmp_path):
    """Patchwork's unlabelled pieces are clues on no cells; a Two-Tone one-letter word a clue on one cell."""
    pieces = read_puzzle(VARIETY / "patchwork-unlabeled-pieces.ipuz")
    saved = tmp_path / "p.json"
    write_puzzle(pieces, saved)
    doc = json.loads(saved.read_text(encoding="utf-8"))
    by_title = {item["title"]: item["clues"] for item in doc["lists"]}
    assert set(by_title) == {"Rows", "Pieces"}
    assert all("entry" in clue and "clue" not in clue for clue in by_title["Rows"])
    assert all(clue["entry"] is None if "entry" in clue else clue["cells"] == [] for clue in by_title["Pieces"])
    assert [clue["clue"] for clue in by_title["Pieces"]] == [c.text for c in pieces.clue_lists[1].clues]
    assert {(x["row"], x["col"], x["corner"], x["text"]) for x in doc["labels"]} == {
        (c.cell // pieces.grid.width, c.cell % pieces.grid.width, c.corner, c.text) for c in pieces.cell_labels
    }
    one_letter = read_puzzle(VARIETY / "two-tone-nonsquare.jpz")
    single = [c for cl in one_letter.clue_lists for c in cl.clues if c.entry is None]
    assert single and all(len(c.cells) == 1 for c in single)


def test_edited_clues_and_a_lost_entry_in_json_lists(tmp_path):
    """A clue edited in `entries` is the list's text; a list clue naming an entry the grid lacks is left out;
    labels outside the grid or in no corner are left out; a bad `lists` is one line."""
    original = read_puzzle(VARIETY / "two-tone.ipuz")
    saved = tmp_path / "t.json"
    write_puzzle(original, saved)
    doc = json.loads(saved.read_text(encoding="utf-8"))
    first = doc["lists"][0]["clues"][0]["entry"]
    for entry in doc["entries"]:
        if entry["id"] == first:
            entry["clue"] = "An edited clue"
    doc["lists"][0]["clues"].append({"label": "Z", "entry": "NO.SUCH"})
    doc["labels"] += [
        {"row": 99, "col": 0, "corner": "TL", "text": "X"},
        {"row": 0, "col": 0, "corner": "Q", "text": "X"},
    ]
    saved.write_text(json.dumps(doc), encoding="utf-8")
    back = read_puzzle(saved)
    assert back.clue_lists[0].clues[0] == ListedClue(original.clue_lists[0].clues[0].label, first, "An edited clue")
    assert len(back.clue_lists[0].clues) == len(original.clue_lists[0].clues)
    assert back.cell_labels == original.cell_labels and all(isinstance(x, CellLabel) for x in back.cell_labels)
    doc["lists"] = [{"title": 3}]
    saved.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match="lists"):
        read_puzzle(saved)
