"""A tiny WordNet database in WordNet's own file format, for tests that must not depend on the installed one."""

from __future__ import annotations

from pathlib import Path

HEADER = "  1 This software and database is being provided to you, the LICENSEE, by  \n"

DATA = {
    "noun": [
        ("00000001", ["goose"], 'web-footed migratory aquatic bird; "a goose honked"'),
        ("00000002", ["ice-cream_cone"], "ice cream in a crisp conical wafer"),
        ("00000003", ["run", "tally"], 'a score in baseball; "three runs in the ninth"'),
        ("00000004", ["Eli"], "a Hebrew high priest"),
    ],
    "verb": [
        ("00000011", ["run"], "move fast by using one's feet"),
        ("00000012", ["run", "go"], "stretch out over a distance"),
    ],
    "adj": [("00000021", ["big(a)", "large"], "above average in size")],
    "adv": [("00000031", ["fast"], "quickly or rapidly")],
}
INDEX = {
    "noun": [
        ("eli", ["00000004"]),
        ("goose", ["00000001"]),
        ("ice-cream_cone", ["00000002"]),
        ("run", ["00000003"]),
        ("tally", ["00000003"]),
    ],
    "verb": [("go", ["00000012"]), ("run", ["00000011", "00000012"])],
    "adj": [("big", ["00000021"]), ("large", ["00000021"])],
    "adv": [("fast", ["00000031"])],
}
EXCEPTIONS = {"noun": "geese goose\n", "verb": "ran run\n", "adj": "bigger big\n", "adv": ""}


def write_wordnet(folder: Path) -> Path:
    """Write the tiny database into `folder` (created) and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for suffix, synsets in DATA.items():
        lines = [HEADER]
        for offset, words, gloss in synsets:
            pairs = " ".join(f"{w} 0" for w in words)
            lines.append(f"{offset} 00 {suffix[0]} {len(words):02x} {pairs} 000 | {gloss}  \n")
        (folder / f"data.{suffix}").write_text("".join(lines))
        index = [HEADER]
        for lemma, offsets in INDEX[suffix]:
            index.append(f"{lemma} {suffix[0]} {len(offsets)} 0 {len(offsets)} 0 {' '.join(offsets)}  \n")
        (folder / f"index.{suffix}").write_text("".join(index))
        (folder / f"{suffix}.exc").write_text(EXCEPTIONS[suffix])
    return folder
