"""The `languages` command (`xwcp.cli.languages`): one pack per line, code first; the same packs as JSON."""

from __future__ import annotations

import json

from tests.helpers import run
from xwcp.model.alphabet import shipped_alphabets


def test_one_pack_per_line_code_first(capsys):
    code, out, err = run(["languages"], capsys)
    assert code == 0 and not err
    lines = out.splitlines()
    packs = shipped_alphabets()
    assert [line.split()[0] for line in lines] == [a.code for a in packs]
    assert lines[0].split()[0] == "en"
    by_code = {line.split()[0]: line for line in lines}
    for alphabet in packs:
        line = by_code[alphabet.code]
        assert alphabet.name in line and f" {alphabet.size} " in line and f" {alphabet.direction} " in line
        assert line.endswith(" ".join(alphabet.letters))
    assert " Ñ " in by_code["es"] and " IJ " in by_code["nl"] and "rtl" in by_code["he"]


def test_json_lists_every_pack(capsys):
    code, out, _ = run(["languages", "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and [p["code"] for p in data["languages"]] == [a.code for a in shipped_alphabets()]
    dutch = next(p for p in data["languages"] if p["code"] == "nl")
    assert "IJ" in dutch["letters"] and dutch["size"] == len(dutch["letters"]) and dutch["direction"] == "ltr"
