"""Hindi grids fill with one akshara a cell: the stock Hindi layouts, from a list of more aksharas than a byte holds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import xwcp
from tests.helpers import _all_runs, check_written_fill
from xwcp.model.alphabet import load_alphabet

MODELS = Path(__file__).resolve().parents[2] / "models"
HINDI_GRIDS = ["7x7-hindi-mini.txt", "9x9-hindi-01.txt", "11x11-hindi-01.txt"]
CONSONANTS = "कखगघचछजझटठडढतथदधनपफबभमयरलवशसह"
SIGNS = ("ा", "ि", "ी", "ु", "ू", "े", "ै", "ो", "ौ", "ीं", "ें", "ों")
AKSHARAS = [c + s for c in CONSONANTS for s in SIGNS]
"""396 aksharas, each a consonant with a vowel sign (so none is a letter of the pack itself): more than 250."""


def grid_rows(name: str) -> list[str]:
    return [line for line in (MODELS / name).read_text("utf-8").splitlines() if line and not line.startswith(";")]


def planted_list(rows: list[str], seed: int) -> tuple[list[str], list[str]]:
    """(the words of a fill of `rows` planted with 60 aksharas used once or twice each, decoys over the other 336
    aksharas, each used some eight times): a list whose rarest aksharas are exactly the fill's."""
    rng = random.Random(seed)
    pool = AKSHARAS[:]
    rng.shuffle(pool)
    planted_pool, decoy_pool = pool[:60], pool[60:]
    while True:
        cells = {
            (r, c): rng.choice(planted_pool) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"
        }
        planted = ["".join(cells[cell] for cell in run) for run in _all_runs(rows)]
        if len(set(planted)) == len(planted):
            break
    decoys = {"".join(rng.choice(decoy_pool) for _ in range(rng.randint(2, 5))) for _ in range(800)}
    return planted, sorted(decoys - set(planted))


@pytest.mark.parametrize("name", HINDI_GRIDS)
def test_a_hindi_grid_fills_from_a_list_of_more_aksharas_than_a_byte_holds(name, tmp_path) -> None:
    rows = grid_rows(name)
    assert {len(run) for run in _all_runs(rows)} <= {2, 3, 4, 5}  # Hindi entries are short: 2-5 aksharas
    planted, decoys = planted_list(rows, seed=len(name))
    listed = tmp_path / "hi.dict"
    listed.write_text("".join(f"{word};60\n" for word in planted + decoys), "utf-8")
    answer = xwcp.fill(str(MODELS / name), language="hi", words=str(listed), time_limit_s=60)
    assert answer.status is xwcp.FillStatus.FILLED, answer
    assert not answer.notes  # no word left out for a rare akshara
    letters = set(AKSHARAS) | set(load_alphabet("hi").letters)
    assert check_written_fill(answer.as_dict()["cells"], set(planted + decoys), letters, pattern=rows) == []


def test_a_hindi_lock_keeps_its_vowel_signs(tmp_path) -> None:
    """Words with vowel signs and anusvaras (marks, not letters, to Unicode) lock into a slot and are banned as
    typed."""
    rows = grid_rows("7x7-hindi-mini.txt")
    planted, decoys = planted_list(rows, seed=3)
    listed = tmp_path / "hi.dict"
    listed.write_text("".join(f"{word};60\n" for word in planted + decoys), "utf-8")
    locked = planted[1]
    answer = xwcp.fill(
        str(MODELS / "7x7-hindi-mini.txt"),
        language="hi",
        words=str(listed),
        locks={"3A": locked},
        bans=[decoys[0]],
        time_limit_s=60,
    )
    assert answer.status is xwcp.FillStatus.FILLED, answer
    assert answer["3A"] == locked and decoys[0] not in {entry.word for entry in answer.entries}
    letters = set(AKSHARAS) | set(load_alphabet("hi").letters)
    assert check_written_fill(answer.as_dict()["cells"], set(planted + decoys), letters, pattern=rows) == []
