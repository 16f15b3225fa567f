"""Say where a system word list came from and under what licence: its Debian package and that package's copyright.

A file under /usr/share (a Hunspell dictionary, a /usr/share/dict list) belongs to a package (`dpkg-query -S`);
the package's `/usr/share/doc/<package>/copyright` states the licence. In Debian's machine-readable format
(DEP-5) the stanza for the file is the one whose `Files:` pattern names the dictionary's folder (LibreOffice's
dictionaries: `dictionaries/es/*` for es_ES) or, failing that, `Files: *`; in a free-form file the line that
says "... license: ..." of the word list. Where no package or copyright file is found, a licence known for the
dictionary is named (`KNOWN_LICENCE_BY_DICTIONARY`), else the user is told to check it.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

DOC_DIR = Path("/usr/share/doc")
MAX_COPYRIGHT_BYTES = 4 * 1024 * 1024
"""Most of a package's copyright file read (Debian's run to about 1 MiB)."""
KNOWN_LICENCE_BY_DICTIONARY = {
    "es_ES": "GPL-3+ or LGPL-3+ or MPL-1.1+ (Santiago Bosio's Spanish dictionary, as Debian's hunspell-es states)",
    "de_DE": "GPL-2 or GPL-3 (Björn Jacke's igerman98, as its .dic states)",
    "ru_RU": "BSD-style, 4 clauses (Alexander Lebedev's Russian dictionary, as Debian's hunspell-ru states)",
    "nl": "BSD or CC BY 3.0 (OpenTaal's Dutch list, as Debian's hunspell-nl states)",
    "spanish": "public domain (Debian's wspanish states it)",
    "ngerman": "GPL-2+ (igerman98, as Debian's wngerman states)",
}
"""Licences named when this machine has no copyright file for a dictionary (keyed by the file's stem)."""
UNKNOWN = "unknown: xwcp found no licence for this file; check it before sharing the list"


@dataclass(frozen=True)
class Provenance:
    """Where a file came from: its package (None when no package owns it) and the licence that package states."""

    package: str | None
    licence: str
    copyright_file: Path | None

    def describe(self) -> str:
        """One line: the licence and where it was read."""
        if self.copyright_file is not None:
            return f"{self.licence} (from {self.copyright_file})"
        if self.package is not None:
            return f"{self.licence} (Debian package {self.package})"
        return self.licence


def owning_package(path: Path) -> str | None:
    """The Debian package that installed `path` (symbolic links followed), None when none did or there is no dpkg."""
    dpkg_query = shutil.which("dpkg-query")
    if dpkg_query is None:
        return None
    for candidate in dict.fromkeys((str(path.absolute()), str(path.resolve()))):
        try:
            done = subprocess.run(
                [dpkg_query, "-S", candidate], capture_output=True, text=True, timeout=20, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode == 0 and ":" in done.stdout:
            return done.stdout.split(":", 1)[0].split(",")[0].strip()
    return None


def provenance(path: Path, doc_dir: Path = DOC_DIR) -> Provenance:
    """The package and licence of a system word-list file (see the module docstring)."""
    package = owning_package(path)
    name = path.resolve().stem if path.exists() else path.stem
    known = KNOWN_LICENCE_BY_DICTIONARY.get(name)
    if package is None:
        return Provenance(None, known or UNKNOWN, None)
    copyright_file = doc_dir / package / "copyright"
    from xwcp.base.errors import InputError
    from xwcp.runtime.files import read_bounded

    try:
        text = read_bounded(copyright_file, MAX_COPYRIGHT_BYTES, "copyright").decode("utf-8", errors="replace")
    except InputError:  # missing, unreadable, not a plain file or over the cap: the licence is not known
        return Provenance(package, known or UNKNOWN, None)
    licence = licence_in_copyright(text, name)
    if licence is None:  # a licence named for the dictionary, else the file to read
        return Provenance(package, known or f"not stated in a form xwcp reads: see {copyright_file}", None)
    return Provenance(package, licence, copyright_file)


def licence_in_copyright(text: str, dictionary: str) -> str | None:
    """The licence a Debian copyright file states for the dictionary named `dictionary` (`es_ES`, `spanish`)."""
    if text.lstrip().startswith("Format:"):
        return _dep5_licence(text, dictionary)
    match = re.search(r"(?im)^\s*(?:word ?list|dictionary)[^\n:]*licen[cs]e\s*:\s*(.+?)\s*$", text)
    if match is None:
        match = re.search(r"(?im)^\s*licen[cs]e\s*:\s*(.+?)\s*$", text)
    if match is not None:
        return match.group(1).rstrip(".")
    return _listed_licences(text)


def _listed_licences(text: str) -> str | None:
    """The bulleted licences under a bare "Licenses:" heading (Debian's hunspell-nl: "- BSD", "- Creative Commons,
    Attribution 3.0"), joined by "or" when the text says to choose one, else by ";"."""
    heading = re.search(r"(?im)^\s*licen[cs]es?\s*:\s*$", text)
    if heading is None:
        return None
    bullets: list[str] = []
    prose: list[str] = []
    for line in text[heading.end() :].splitlines()[:30]:
        stripped = line.strip()
        if re.match(r"[-*]\s+\S", stripped):
            bullets.append(re.sub(r"\s*<[^>]*>", "", stripped[1:]).strip(" ,;"))
        elif bullets and not stripped:
            break
        elif bullets and not stripped.startswith("<"):  # a bullet's wrapped address line is skipped
            break
        else:
            prose.append(stripped)
    if not bullets:
        return None
    return (" or " if re.search(r"\bone of\b", " ".join(prose), re.I) else "; ").join(bullets)


def _dep5_licence(text: str, dictionary: str) -> str | None:
    """The `License:` of the DEP-5 stanza that covers the dictionary (see the module docstring)."""
    language = dictionary.split("_")[0]
    folders = {dictionary, language}
    fallback: str | None = None
    for stanza in re.split(r"\n\s*\n", text):
        files = re.search(r"(?m)^Files:\s*((?:.+)(?:\n[ \t]+.+)*)", stanza)
        licence = re.search(r"(?m)^License:\s*(.+?)\s*$", stanza)
        if files is None or licence is None:
            continue
        patterns = files.group(1).split()
        if "*" in patterns and fallback is None:
            fallback = licence.group(1)
        for pattern in patterns:
            parts = pattern.split("/")
            if len(parts) >= 2 and folders & set(parts[:-1]) and fnmatch.fnmatch(f"{dictionary}.dic", parts[-1]):
                return licence.group(1)
    return fallback
