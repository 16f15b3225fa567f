"""xwcp/render/questions_text.py: the terminal text of the check, domains, suggest and heat-map answers, from
their JSON-ready dicts (built by hand here, in the shapes xwcp.analysis.questions answers with)."""
from __future__ import annotations

from xwcp.model import grid_lines, parse_grid
from xwcp.render.questions_text import check_text, domains_text, heatmap_text, suggest_text

KEY = "key: number = letters still possible, . = any (26), X = dead, =L entered, l (lower case) forced"


def test_domains_one_line_per_slot():
    data = {"status": "consistent",
            "slots": [{"id": "1A", "pattern": "A..", "size": 1234, "words": [{"word": "ABC"}, {"word": "ACE"}]},
                      {"id": "12D", "pattern": "...", "size": 0, "words": []}]}
    assert domains_text(None, data).splitlines() == ["   1A A..               1,234  ABC ACE",
                                                     "  12D ...                   0  "]
    data["status"], data["reason"] = "unfillable", "12D has no word"
    assert domains_text(None, data).splitlines()[:2] == ["Unfillable: 12D has no word", ""]


def test_heatmap_cells_of_a_plain_grid():
    data = {"status": "consistent", "forced": [{"row": 0, "col": 2, "letter": "E"}],
            "cells": [[None, 26, 3], [0, 12, 1]], "letters": [["", "", ""], ["", "", "Q"]]}
    assert heatmap_text(data).splitlines() == [" ##  .  e", "  X 12 =Q", KEY]


def test_heatmap_of_another_alphabet_counts_its_own_letters_as_free():
    # Russian (32 letters): 32 is "any letter", 26 is just a number; the key says 32; a forced letter is lower-cased
    data = {"status": "consistent", "n_letters": 32, "forced": [{"row": 0, "col": 2, "letter": "Ж"}],
            "cells": [[None, 32, 1], [26, 12, 1]], "letters": [["", "", ""], ["", "", "Ё"]]}
    lines = heatmap_text(data).splitlines()
    assert lines[:2] == [" ##  .  ж", " 26 12 =Ё"]
    assert lines[2] == KEY.replace("(26)", "(32)")


def test_picture_legend_names_the_alphabets_free_count():
    from xwcp.render.picture import legend_lines

    assert "(32)" in legend_lines({"status": "consistent", "n_letters": 32})[0]
    assert "(26)" in legend_lines({"status": "consistent"})[0]


def test_heatmap_of_an_unfillable_grid_says_why_and_names_its_picture():
    data = {"status": "unfillable", "reason": "1A has no word", "core": {"message": "1A and 1D cannot both fit"},
            "forced": [], "cells": [[0]], "letters": [[""]], "png": "heat.png"}
    assert heatmap_text(data).splitlines() == ["Unfillable: 1A has no word", "Why: 1A and 1D cannot both fit.",
                                               "  X", KEY, "picture: heat.png"]


def test_heatmap_draws_bars_marks_and_rebus_cells_from_the_grid_lines():
    grid = parse_grid("(.)|.\n -\n[AB].\n")
    data = {"status": "consistent", "forced": [], "grid": grid_lines(grid),
            "cells": [[5, 7], [26, 26]], "letters": [["", ""], ["AB", ""]]}
    assert heatmap_text(data).splitlines() == [
        " (5)| 7",  # circled count; a bar between the two cells; columns 3 and 2 wide
        " ---",  # the bar under the circled cell: as wide as its column
        " =AB  .",  # the rebus shows all its letters
        KEY, "     | and - = bars, (n) circled, {n} shaded, =LETTERS a rebus cell"]


def test_check_verdicts():
    base = {"forced": []}
    assert check_text({**base, "verdict": "fillable"}) == "Fillable: a full fill exists (shown below)."
    assert check_text({**base, "verdict": "unfillable", "reason": "2D has no word"}) == "Unfillable: 2D has no word"
    assert check_text({**base, "verdict": "unfillable"}) == "Unfillable"
    assert check_text({**base, "verdict": "unknown"}).startswith("Unknown: no dead end found by arc consistency")


def test_check_lists_unlisted_tightest_forced_and_the_fill():
    data = {"verdict": "fillable", "unlisted": [{"id": "1A", "word": "ZZZ"}, {"id": "4A", "word": "QQQ"}],
            "most_constrained": {"id": "1D", "pattern": "Z..", "size": 12345},
            "forced": [{"row": 0, "col": 1, "letter": "E"}, {"row": 2, "col": 0, "letter": "S"}],
            "fill": ["ZZZ", "QQQ"]}
    assert check_text(data).splitlines() == [
        "Fillable: a full fill exists (shown below).",
        "Not in the word list (2 entries): 1A ZZZ, 4A QQQ",
        "Most constrained open slot: 1D Z.. (12,345 words)",
        "Forced letters: r1c2=E, r3c1=S",  # rows and columns from 1
        "", "Z Z Z", "Q Q Q"]
    data["unlisted"] = data["unlisted"][:1]
    assert "Not in the word list (1 entry): 1A ZZZ" in check_text(data).splitlines()


def test_suggest_lists_words_with_score_fit_verdict_and_fill():
    data = {"status": "consistent", "slot": {"id": "1A", "pattern": "C..", "size": 1},
            "words": [{"word": "CAT", "score": 60, "fit": 0.5, "verdict": "viable", "fill": ["CAT", "ORE"]},
                      {"word": "CXQ", "score": None, "fit": 0.0}]}
    assert suggest_text(data).splitlines() == [
        "1A C..: 1 word fits",
        "  CAT              score  60  fit 0.50  viable",
        "      C A T", "      O R E",
        "  CXQ              score   -  fit 0.00"]  # a word the user typed, not in the list
    data["slot"]["size"], data["status"], data["reason"] = 2500, "unfillable", "4A has no word"
    assert suggest_text(data).splitlines()[:2] == ["Unfillable: 4A has no word", "1A C..: 2,500 words fit"]
