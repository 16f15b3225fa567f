"""`xwcp.words.hunspell`: a small Hunspell pair made here expands to exactly the forms Hunspell accepts."""
from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.words.hunspell import HunspellFiles, expand

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
    assert sorted(set(forms)) == sorted({
        "cat", "cats", "fly", "flies",  # conditions: fly -> flies, play -> plays
        "kind", "kindness", "kindnesses", "unkind",  # two-fold: ness then its S; N is no cross product
        "unhappy",  # NEEDAFFIX: happy alone is not listed
        "play", "plays", "replay",  # K has no cross product: no replays
        "work",  # works only inside compounds (its suffix carries ONLYINCOMPOUND)
    })
    assert "bad" not in forms and "ful" not in forms  # FORBIDDENWORD, ONLYINCOMPOUND


def test_a_missing_half_of_the_pair_is_named(tmp_path):
    (tmp_path / "yy.dic").write_text("1\nword\n", encoding="utf-8")
    with pytest.raises(InputError, match="yy.aff is missing"):
        HunspellFiles.beside(tmp_path / "yy.dic")
