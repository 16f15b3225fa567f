"""A language named inside a puzzle file is a shipped pack's code or tag, never a file on the reading machine: through
the reader of every format that names one and through the command line, whose own `--language FILE` (the user's
pack) still reads a file."""

from __future__ import annotations

import os
import re
import sys

import pytest

from tests.cli.helpers import assert_one_line_error
from tests.helpers import run
from tests.project.hostile import LANGUAGE_FORMATS, planted_pack, puzzle_naming_language
from xwcp.base.errors import InputError
from xwcp.formats import read_puzzle
from xwcp.model.alphabet import ENGLISH

REFUSED = ("txt", "json")
"""Formats whose unknown language is an error (xwcp's own); an .ipuz or .xd is read as English with a warning."""
_WATCHED: list[str] = []
_TOUCHED: list[str] = []


def _watched(path: object) -> str | None:
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode("utf-8", "replace")
    if isinstance(path, str) and _WATCHED and os.path.abspath(path).startswith(tuple(_WATCHED)):
        return path
    return None


def _audit(event: str, args: tuple) -> None:
    if event == "open" and args and _watched(args[0]):
        _TOUCHED.append(f"open {args[0]}")


sys.addaudithook(_audit)  # for the whole process (a hook cannot be removed): it records nothing while none is watched


@pytest.fixture
def secrets(tmp_path, monkeypatch):
    """Files a puzzle may name, in a watched folder: a valid pack (with and without .json), a file that is no pack
    and a name that does not exist. Every open (an audit event) or stat of them is recorded in `_TOUCHED`."""
    folder = tmp_path / "secrets"
    folder.mkdir()
    (folder / "pack").write_text(planted_pack(), encoding="utf-8")
    (folder / "pack.json").write_text(planted_pack(), encoding="utf-8")
    (folder / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    real_stat = os.stat

    def stat(path, *args, **kwargs):
        if _watched(path):
            _TOUCHED.append(f"stat {path}")
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.chdir(tmp_path)
    _WATCHED.append(str(folder))
    _TOUCHED.clear()
    yield {
        "pack": str(folder / "pack"),
        "pack.json": str(folder / "pack.json"),
        "passwd": str(folder / "passwd"),
        "missing": str(folder / "missing"),
        "relative": "secrets/pack",
        "dotdot": "../" + tmp_path.name + "/secrets/pack",
    }
    _WATCHED.remove(str(folder))


def _read(tmp_path, fmt: str, name: str):
    path = tmp_path / f"named.{fmt}"
    path.write_bytes(puzzle_naming_language(fmt, name))
    return read_puzzle(path)


@pytest.mark.parametrize("fmt", LANGUAGE_FORMATS)
def test_a_path_a_file_names_is_never_opened_and_answered_alike(tmp_path, secrets, fmt):
    said = set()
    for name in secrets.values():
        if fmt in REFUSED:
            with pytest.raises(InputError, match="unknown language") as caught:
                _read(tmp_path, fmt, name)
            message = str(caught.value)
        else:
            puzzle = _read(tmp_path, fmt, name)
            assert puzzle.alphabet is ENGLISH and puzzle.grid.rows == ["CAT", "A#A", "TAT"]
            (message,) = [w for w in puzzle.warnings if "language" in w]
            assert "none of xwcp's packs" in message
        assert "root:" not in message and "\n" not in message
        said.add(re.sub(r"language '[^']*'(\.\.\.)?", "language NAME", message))
    assert _TOUCHED == []  # neither the pack nor the other files were opened, nor looked up
    assert len(said) == 1, said  # whether the file exists, is a pack or is not: the same answer


@pytest.mark.parametrize("fmt", LANGUAGE_FORMATS)
def test_a_pack_code_or_tag_in_a_file_still_names_its_pack(tmp_path, fmt):
    for name, code in (
        ("es", "es"),
        ("es-MX", "es"),
        ("nl_NL", "nl"),
        ("DE", "de"),
        ("de-umlaut", "de-umlaut"),
        ("fr-CA", "fr"),
        ("EN", "en"),
    ):
        assert _read(tmp_path, fmt, name).alphabet.code == code, name


HOSTILE_NAMES = [
    "",
    " ",
    "xx",
    "..",
    "../es",
    "./es",
    "/",
    "~",
    "es/../es",
    "es\x00",
    "\x00",
    "C:\\es",
    "e" * 100_000,
    "x-" + "es" * 50_000,
    "\u202ees",
    "ｅｓ",
    "es\n; language: /etc/passwd",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_pack_alphabet_takes_codes_only_and_answers_in_one_short_line(name):
    from xwcp.model.alphabet import pack_alphabet

    with pytest.raises(InputError) as caught:
        pack_alphabet(name)
    message = str(caught.value)
    assert message.startswith("unknown language ") and "\n" not in message and len(message) < 300, message[:400]


def test_pack_alphabet_reads_codes_and_tags():
    from xwcp.model.alphabet import pack_alphabet

    assert pack_alphabet("es").code == "es" and pack_alphabet(" ES-mx ").code == "es"
    assert pack_alphabet("nl_NL").code == "nl" and pack_alphabet("de-umlaut").code == "de-umlaut"
    assert pack_alphabet("de-AT").code == "de" and pack_alphabet("en-GB") is ENGLISH
    assert pack_alphabet("es-" + "x" * 100_000).code == "es"  # a tag's primary subtag names the pack


# ----- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("fmt", LANGUAGE_FORMATS)
@pytest.mark.parametrize("target", ["pack", "passwd", "missing"])
def test_the_command_line_never_opens_a_file_a_grid_names(tmp_path, secrets, capsys, fmt, target):
    path = tmp_path / f"named.{fmt}"
    path.write_bytes(puzzle_naming_language(fmt, secrets[target]))
    out_path = tmp_path / "out.txt"
    code, _, err = run(["convert", path, out_path], capsys)
    if fmt in REFUSED:
        assert code == 2 and not out_path.exists()
        line = assert_one_line_error(err, f"named.{fmt}", f"unknown language {secrets[target][:20]!r}"[:-1])
        assert "--language FILE" in line and "root:" not in line
    else:
        assert code == 0, err
        assert f"language {secrets[target][:20]!r}"[:-1] in err and "is none of xwcp's packs" in err
        assert out_path.read_text(encoding="utf-8").splitlines()[-3:] == ["CAT", "A#A", "TAT"]  # read as English
    assert _TOUCHED == []


def test_language_file_on_the_command_line_is_still_read(tmp_path, secrets, capsys):
    """The user's own pack, named on the command line, is read (the grid's own line is not consulted)."""
    grid = tmp_path / "named.txt"
    grid.write_bytes(puzzle_naming_language("txt", secrets["missing"]))
    out_path = tmp_path / "out.txt"
    code, _, err = run(["convert", grid, out_path, "--language", secrets["pack.json"]], capsys)
    assert code == 0, err
    assert out_path.read_text(encoding="utf-8").startswith("; Language: zz")
    assert any("open" in touched and touched.endswith("pack.json") for touched in _TOUCHED)
