"""The installed Hungarian and Hebrew Hunspell dictionaries (Debian's hunspell-hu and hunspell-he) build a list on
their own, exit 0, and what the bounded expansion makes is what Hunspell accepts. Slow (a minute each); their time
and memory are measured by bench/language_lists.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import xwcp
from xwcp.model.alphabet import load_alphabet
from xwcp.words.build import hunspell_expansion, resolve_origin

pytest.importorskip("spylls", reason="Hunspell pairs are read by spylls (the [languages] extra)")
pytestmark = pytest.mark.slow

TREE = Path(xwcp.__file__).resolve().parents[1]
DICTIONARY_BY_CODE = {"hu": Path("/usr/share/hunspell/hu_HU.dic"), "he": Path("/usr/share/hunspell/he_IL.dic")}


@pytest.mark.parametrize("code", sorted(DICTIONARY_BY_CODE))
def test_the_installed_dictionary_builds_a_bounded_list_and_exits_0(code, tmp_path):
    if not DICTIONARY_BY_CODE[code].is_file():
        pytest.skip(f"{DICTIONARY_BY_CODE[code]} is not installed (.ci/install-languages.sh)")
    out = tmp_path / f"{code}.dict"
    env = {**os.environ, "PYTHONPATH": str(TREE), "XWCP_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "xwcp",
            "words",
            "build",
            "--language",
            code,
            "--from",
            "hunspell",
            "--scores",
            "flat",
            "--out",
            str(out),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["written"] > 500_000 and "shortest" in answer["bound"]
    assert (
        sum(1 for line in out.read_text(encoding="utf-8").splitlines() if not line.startswith("#")) == answer["written"]
    )


@pytest.mark.parametrize("code", sorted(DICTIONARY_BY_CODE))
def test_forms_drawn_from_the_bounded_expansion_are_accepted_by_hunspell(code):
    from spylls.hunspell import Dictionary

    if not DICTIONARY_BY_CODE[code].is_file():
        pytest.skip(f"{DICTIONARY_BY_CODE[code]} is not installed (.ci/install-languages.sh)")
    alphabet = load_alphabet(code)
    expansion = hunspell_expansion(resolve_origin(alphabet, "hunspell"), alphabet)
    assert expansion.is_bounded
    forms = list(expansion)
    drawn = random.Random(code).sample(forms, 2000)
    dictionary = Dictionary.from_files(str(DICTIONARY_BY_CODE[code].with_suffix("")))
    assert [form for form in drawn if not dictionary.lookup(form)] == []
