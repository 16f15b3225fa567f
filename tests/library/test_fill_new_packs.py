"""Estonian, Slovenian, Romanian (both conventions) and Ancient Greek fill a small grid typed in lower case with
the language's marks, from a short list of real words written as the language writes them; each fill is checked."""

from __future__ import annotations

import pytest

import xwcp
from tests.helpers import check_written_fill
from xwcp.model.alphabet import load_alphabet

CASES = {
    # code: (grid typed as a constructor would, the list as written, the entries a fill must use)
    "et": ("õ..\n.#.\n...\n", "õun õde näo ego maa kuu", {"ÕUN", "ÕDE", "NÄO", "EGO"}),
    "sl": ("..ž\n.#.\n...\n", "nož nos žar sir čaj koš", {"NOŽ", "NOS", "ŽAR", "SIR"}),
    # cedilla ş ţ in the list and the grid: the same letters as comma-below ș ț
    "ro": ("aşa\n.#.\n...\n", "aşa apă ară aţă şah", {"ASA", "APA", "ARA", "ATA"}),
    "ro-diacritics": (".#.\nţ..\n.#.\n", "aţă apă ţap aşa ară şah", {"AȚĂ", "ȚAP", "APĂ"}),
    # ῷ is Ω and the adscript Ι, two cells
    "grc": ("...\n.#.\nἵ..\n", "τῷ τοι ἴσα ἵνα τόν", {"ΤΩΙ", "ΤΟΙ", "ΙΣΑ", "ΙΝΑ"}),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_new_pack_fills_a_typed_grid_from_a_list_of_its_words(code, tmp_path) -> None:
    typed, words, entries = CASES[code]
    alphabet = load_alphabet(code)
    listed = tmp_path / f"{code}.dict"
    listed.write_text("".join(f"{word};60\n" for word in words.split()), "utf-8")
    grid = tmp_path / "grid.txt"
    grid.write_text(typed, "utf-8")
    answer = xwcp.fill(str(grid), language=code, words=str(listed))
    assert answer.status is xwcp.FillStatus.FILLED, answer
    data = answer.as_dict()
    cells = data["cells"]
    written = {"".join(alphabet.cell_text(ch) for ch in alphabet.fold_word(word) or "") for word in words.split()}
    assert check_written_fill(cells, written, alphabet.letters) == []
    assert {entry["word"] for entry in data["entries"]} == entries
    for r, row in enumerate(typed.splitlines()):  # the typed letters kept, as the pack writes them
        for c, ch in enumerate(row):
            if ch not in ".#":
                assert cells[r][c] == alphabet.cell_text(alphabet.folded_cell(ch) or "?"), (r, c)
