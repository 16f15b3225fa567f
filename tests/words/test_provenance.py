"""`xwcp.words.provenance`: the licence a Debian copyright file states for a dictionary."""

from __future__ import annotations

from pathlib import Path

from xwcp.words import provenance as prov
from xwcp.words.provenance import Provenance, licence_in_copyright, provenance

DEP5 = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: libreoffice-dictionaries

Files: *
Copyright: The LibreOffice Project
License: MPL-2.0

Files: dictionaries/es/*
Copyright: Santiago Bosio
License: GPL-3+ or LGPL-3+ or MPL-1.1+

Files: dictionaries/es/th_es_ANY_v2.dat
Copyright: Marcelo Garrone
License: LGPL-2.1

Files: dictionaries/ru_RU/*
Copyright: 1997-2008 Alexander I. Lebedev
License: custom-bsd-4-clauses
"""
FREE_FORM = """This package was debianized by someone.

Word list license: Public Domain.

Debian packaging copyright and license:
 GPL-2+
"""


def test_the_stanza_of_the_dictionary_s_folder_is_read():
    assert licence_in_copyright(DEP5, "es_ES") == "GPL-3+ or LGPL-3+ or MPL-1.1+"
    assert licence_in_copyright(DEP5, "ru_RU") == "custom-bsd-4-clauses"
    assert licence_in_copyright(DEP5, "fr_FR") == "MPL-2.0"  # no stanza of its own: Files: *


def test_a_free_form_file_names_the_word_list_s_licence():
    assert licence_in_copyright(FREE_FORM, "spanish") == "Public Domain"


def test_a_file_of_no_package(monkeypatch, tmp_path):
    monkeypatch.setattr(prov, "owning_package", lambda path: None)
    found = provenance(tmp_path / "mine.dic")
    assert found == Provenance(None, prov.UNKNOWN, None)
    assert provenance(tmp_path / "es_ES.dic").licence == prov.KNOWN_LICENCE_BY_DICTIONARY["es_ES"]


def test_the_package_s_copyright_file_is_read(monkeypatch, tmp_path):
    monkeypatch.setattr(prov, "owning_package", lambda path: "hunspell-es")
    (tmp_path / "hunspell-es").mkdir()
    (tmp_path / "hunspell-es" / "copyright").write_text(DEP5, encoding="utf-8")
    found = provenance(Path("/nowhere/es_ES.dic"), doc_dir=tmp_path)
    assert found.licence == "GPL-3+ or LGPL-3+ or MPL-1.1+"
    assert found.describe() == f"GPL-3+ or LGPL-3+ or MPL-1.1+ (from {tmp_path / 'hunspell-es' / 'copyright'})"


BULLETED = """Copyright:
(c) 2020 OpenTaal

Licenses:
--------------------------------------------------------------------------------
OpenTaal distributes its word list under the following licenses. It is up to the
user to choose one of these two licenses.
- BSD, <http://www.opensource.org/licenses/bsd-license.php>
- Creative Commons, Attribution 3.0,
<http://creativecommons.org/licenses/by/3.0/legalcode>

More text.
"""


def test_bulleted_licences_under_a_heading():
    assert licence_in_copyright(BULLETED, "nl") == "BSD or Creative Commons, Attribution 3.0"
    assert licence_in_copyright("No licence here at all.\n", "xx") is None
