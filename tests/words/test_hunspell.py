"""`xwcp.words.hunspell`: a small Hunspell pair made here expands to exactly the forms Hunspell accepts."""

from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.words.hunspell import MAX_FORMS_PER_STEM, HunspellFiles, _largest_cap, expand

pytest.importorskip("spylls", reason="the [languages] extra's spylls expands Hunspell dictionaries")

AFF = """SET UTF-8
NEEDAFFIX X
FORBIDDENWORD F
ONLYINCOMPOUND O
SFX S Y 4
SFX S 0 s [^sy]
SFX S 0 s [aeiou]y
SFX S y ies [^aeiou]y
SFX S 0 es s
SFX N N 1
SFX N 0 ness/S .
PFX U Y 1
PFX U 0 un .
PFX K N 1
PFX K 0 re .
SFX Z Y 1
SFX Z 0 s/O .
"""
DIC = """9
cat/S
fly/S
kind/NU
happy/UX
bad/F
ful/O
play/KS
work/Z
\tcomment line (Hunspell skips lines that start with a tab)
"""


def test_expansion_follows_the_affix_rules(tmp_path):
    (tmp_path / "xx.aff").write_text(AFF, encoding="utf-8")
    (tmp_path / "xx.dic").write_text(DIC, encoding="utf-8")
    forms = list(expand(HunspellFiles.beside(tmp_path / "xx.dic")))
    assert sorted(set(forms)) == sorted(
        {
            "cat",
            "cats",
            "fly",
            "flies",  # conditions: fly -> flies, play -> plays
            "kind",
            "kindness",
            "kindnesses",
            "unkind",  # two-fold: ness then its S; N is no cross product
            "unhappy",  # NEEDAFFIX: happy alone is not listed
            "play",
            "plays",
            "replay",  # K has no cross product: no replays
            "work",  # works only inside compounds (its suffix carries ONLYINCOMPOUND)
        }
    )
    assert "bad" not in forms and "ful" not in forms  # FORBIDDENWORD, ONLYINCOMPOUND


def test_a_missing_half_of_the_pair_is_named(tmp_path):
    (tmp_path / "yy.dic").write_text("1\nword\n", encoding="utf-8")
    with pytest.raises(InputError, match="yy.aff is missing"):
        HunspellFiles.beside(tmp_path / "yy.dic")


STACKED_AFF = """SET UTF-8
PFX P N 7
PFX P 0 w .
PFX P 0 h .
PFX P 0 b .
PFX P 0 wh .
PFX P 0 wb .
PFX P 0 hb .
PFX P 0 whb .
SFX S Y 2
SFX S 0 s [^s]
SFX S 0 x'/T [^s]
SFX T Y 1
SFX T ' z '
"""
"""Hebrew's shape, small: one-letter prefixes (and, the, in) and their stacks as prefixes of their own."""


def _stacked(tmp_path, n_stems=40):
    (tmp_path / "st.aff").write_text(STACKED_AFF, encoding="utf-8")
    stems = [f"{a}{b}o" for a in "cdfgklmnpr" for b in "aeiu"][:n_stems]
    (tmp_path / "st.dic").write_text(f"{len(stems)}\n" + "".join(f"{stem}/P\n" for stem in stems), encoding="utf-8")
    return HunspellFiles.beside(tmp_path / "st.dic"), stems


def test_a_dictionary_past_its_budget_keeps_each_stem_s_shortest_forms(tmp_path):
    files, stems = _stacked(tmp_path)
    whole = expand(files)
    assert not whole.is_bounded and whole.bound_note() == ""
    assert len(set(whole)) == len(stems) * 8  # the stem and its seven prefixes
    bounded = expand(files, list_forms=len(stems) * 4)
    forms = list(bounded)
    assert bounded.is_bounded and bounded.per_stem_cap == 4 and "keeps its 4 shortest" in bounded.bound_note()
    assert sorted(forms) == sorted(f"{p}{stem}" for stem in stems for p in ("", "w", "h", "b"))  # no stacked prefix
    assert bounded.n_stems_done == bounded.n_stems == len(stems)


def test_every_form_made_is_one_hunspell_accepts(tmp_path):
    from spylls.hunspell import Dictionary

    for name, aff, dic in (("xx", AFF, DIC), ("st", STACKED_AFF, "3\ncat/PS\nbus/PS\nhop/S\n")):
        (tmp_path / f"{name}.aff").write_text(aff, encoding="utf-8")
        (tmp_path / f"{name}.dic").write_text(dic, encoding="utf-8")
        files = HunspellFiles.beside(tmp_path / f"{name}.dic")
        dictionary = Dictionary.from_files(str(tmp_path / name))
        for list_forms in (10**6, 4):
            forms = list(expand(files, list_forms=list_forms))
            assert forms and [form for form in forms if not dictionary.lookup(form)] == []


def test_forms_the_alphabet_cannot_spell_are_not_made(tmp_path):
    (tmp_path / "st.aff").write_text(STACKED_AFF, encoding="utf-8")
    (tmp_path / "st.dic").write_text("2\ncat/S\nhop/S\n", encoding="utf-8")
    files = HunspellFiles.beside(tmp_path / "st.dic")
    assert set(expand(files)) == {"cat", "cats", "catx'", "catxz", "hop", "hops", "hopx'", "hopxz"}
    letters_only = set(expand(files, spells=str.isalpha))
    assert letters_only == {"cat", "cats", "catxz", "hop", "hops", "hopxz"}  # x' is not made, but x' then z is


def test_the_cap_is_the_largest_within_the_budget():
    assert _largest_cap([1, 2, 10, 10], 15) == 6  # 1 + 2 + 6 + 6
    assert _largest_cap([1, 2, 10, 10], 23) == MAX_FORMS_PER_STEM  # every form fits
    assert _largest_cap([50, 60], 1) == 1


def test_stems_shorter_than_a_condition_are_tested_whole(tmp_path):
    """Stems are tested once per ending (the letters the conditions look at): a stem shorter than that is its own
    ending, not a shorter slice of it."""
    aff = "SET UTF-8\nSFX V Y 2\nSFX V irar íro irar\nSFX V ar é [^g]ar\n"
    (tmp_path / "v.aff").write_text(aff, encoding="utf-8")
    (tmp_path / "v.dic").write_text("3\nmirar/V\nair/V\nrar/V\n", encoding="utf-8")
    assert set(expand(HunspellFiles.beside(tmp_path / "v.dic"))) == {"mirar", "míro", "miré", "air", "rar", "ré"}


@pytest.mark.subprocess
def test_a_capped_expansion_keeps_the_same_forms_in_every_run(tmp_path):
    """Flags are sets: a stem cut short must not keep forms in the order a run's string hashing gives them."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import xwcp

    flags = "ABCDEFGH"
    aff = ["SET UTF-8", "SFX S Y 1", f"SFX S 0 s/{flags} ."]
    for k, flag in enumerate(flags):
        aff += [f"SFX {flag} Y 1", f"SFX {flag} 0 {'xyzwvutr'[k]} ."]
    (tmp_path / "h.aff").write_text("\n".join(aff) + "\n", encoding="utf-8")
    (tmp_path / "h.dic").write_text(
        "20\n" + "".join(f"st{a}{b}/S\n" for a in "abcde" for b in "abcd"), encoding="utf-8"
    )
    code = (
        "import sys; from pathlib import Path; from xwcp.words.hunspell import HunspellFiles, expand; "
        "print(' '.join(expand(HunspellFiles.beside(Path(sys.argv[1])), list_forms=100)))"
    )
    tree = str(Path(xwcp.__file__).resolve().parents[1])
    runs = {
        subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / "h.dic")],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": tree, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(1, 6)
    }
    assert len(runs) == 1 and len(runs.pop().split()) == 100  # 5 forms a stem of 11, the same ones each time
