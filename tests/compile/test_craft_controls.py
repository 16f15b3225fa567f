"""Per-slot filters, the stem rule and forbidden crossings of tagged entries: read, compiled, kept by every backend,
checked."""

from __future__ import annotations

import re

import pytest

from tests.backends.test_backends import SMALL_PAIRS, brute_force_fills
from xwcp.backends import available_backends, fill, get_backend
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.compile.controls import Controls, FilterKind, SlotFilter, make_controls, parse_filter, read_list_tags
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid
from xwcp.words.hunspell import tagged_stems
from xwcp.words.wordlist import words_from_pairs

SMALL = [w for w, _ in SMALL_PAIRS]
RING = ("...", ".#.", "...")
"""Four 3-letter slots: 1A (row 1), 1D (column 1), 2D (column 3), 3A (row 3); each across crosses each down."""


@pytest.fixture(params=available_backends())
def backend(request):
    return request.param


def ring_entries(rows):
    """{slot name: entry} of a filled RING, read without xwcp."""
    return {"1A": rows[0], "3A": rows[2], "1D": "".join(r[0] for r in rows), "2D": "".join(r[2] for r in rows)}


def ring_problem(controls, words=None):
    return compile_problem(
        parse_grid("\n".join(RING) + "\n"), words or words_from_pairs(SMALL_PAIRS), min_score=0, controls=controls
    )


def assert_all_of(problem, backend, ok):
    """Every fill `backend` counts is in `ok`, and it counts them all (the filters narrow domains: counting holds)."""
    result = fill(problem, backend, Limits(time_limit_s=30, count=0))
    assert result.n_fills == len(ok)
    assert {tuple(result.grid(problem, i).rows) for i in range(len(result.fills))} <= ok
    assert all(check_fill(problem, entries) == [] for entries in result.fills)


def assert_one_of(problem, result, ok):
    if ok:
        assert result.status is FillStatus.FILLED, result.reason
        assert tuple(result.grid(problem).rows) in ok
        assert check_fill(problem, result.fills[0]) == []
    else:
        assert result.status is FillStatus.UNFILLABLE


# --- per-slot filters ---


@pytest.mark.parametrize(
    ("text", "kind", "body"),
    [
        ("~.*ING", FilterKind.MATCHES, ".*ING"),
        ("+ing", FilterKind.CONTAINS, "ING"),
        ("-ER", FilterKind.LACKS, "ER"),
        ("!ice cream", FilterKind.BANS, "ICECREAM"),
    ],
)
def test_a_filter_reads_its_kind_from_its_sign(text, kind, body):
    got = parse_filter(text, "17A")
    assert (got.kind, got.text) == (kind, body)


@pytest.mark.parametrize("text", ["?E", "~", "+", "~[", "+1A"])
def test_a_malformed_filter_is_bad_input_naming_the_slot(text):
    with pytest.raises(InputError, match="17A"):
        Controls(filters_by_slot=[f"17A={text}"])


def test_filters_narrow_the_slot_as_python_re_would_in_every_backend(backend):
    fills = brute_force_fills(RING, SMALL)
    ok = {f for f in fills if re.fullmatch(".A.", ring_entries(f)["1A"]) and "E" not in ring_entries(f)["2D"]}
    assert fills and ok and ok != fills  # the filters matter on this grid
    problem = ring_problem(Controls(filters_by_slot={"1A": "~.a.", "2D": ["-E"]}))
    assert_all_of(problem, backend, ok)


def test_a_ban_in_one_slot_leaves_the_word_to_the_others(backend):
    fills = brute_force_fills(RING, SMALL)
    first = sorted(ring_entries(f)["1A"] for f in fills)[0]
    ok = {f for f in fills if ring_entries(f)["1A"] != first}
    problem = ring_problem(Controls(filters_by_slot=[f"1A=!{first}"]))
    assert_all_of(problem, backend, ok)


def test_only_from_keeps_the_slot_to_the_files_words(tmp_path, backend):
    fills = brute_force_fills(RING, SMALL)
    allowed = {"TEA", "ERA"}
    ok = {f for f in fills if ring_entries(f)["3A"] in allowed}
    (tmp_path / "mine.txt").write_text("tea;50\nera\n")
    problem = ring_problem(make_controls(filters=[f"3A=@{tmp_path / 'mine.txt'}"]))
    assert_all_of(problem, backend, ok)


def test_check_fill_holds_a_fill_to_its_filters():
    problem = ring_problem(Controls(filters_by_slot={"1A": "+Q"}))
    fills = brute_force_fills(RING, SMALL)
    rows = min(fills)
    entries = [ring_entries(rows)[s.name] for s in problem.slots]
    assert any("fails its filter +Q" in v for v in check_fill(problem, entries))


def test_personal_filter_without_a_personal_list_is_bad_input(tmp_path):
    with pytest.raises(InputError, match="no personal word list"):
        make_controls(filters=["1A=@personal"], personal_list=tmp_path / "absent.dict")


def test_filter_objects_and_text_are_one_control():
    assert Controls(filters_by_slot={"1a": SlotFilter(FilterKind.CONTAINS, "ING")}) == Controls(
        filters_by_slot=["1A=+ING"]
    )


# --- the stem rule ---

TWO_ROWS = "....\n####\n....\n"
"""Two 4-letter slots that do not cross: 1A and 2A."""


def test_no_two_entries_of_one_stem_in_every_backend(backend):
    words = words_from_pairs([("TIES", 50), ("TIED", 50)])
    plain = compile_problem(parse_grid(TWO_ROWS), words, controls=Controls(locks={"1A": "TIES"}))
    assert fill(plain, backend, Limits(time_limit_s=30)).status is FillStatus.FILLED  # TIED is all that is left
    stemmed = compile_problem(parse_grid(TWO_ROWS), words, controls=Controls(locks={"1A": "TIES"}, distinct_stems=True))
    assert fill(stemmed, backend, Limits(time_limit_s=30)).status is FillStatus.UNFILLABLE
    more = words_from_pairs([("TIES", 50), ("TIED", 90), ("NOTE", 40)])
    problem = compile_problem(parse_grid(TWO_ROWS), more, min_score=0, controls=Controls(distinct_stems=True))
    result = fill(problem, backend, Limits(time_limit_s=30))
    assert result.status is FillStatus.FILLED
    assert "NOTE" in result.fills[0] and check_fill(problem, result.fills[0]) == []


def test_a_complete_entry_takes_its_stem_out_of_every_open_slot_before_the_search():
    words = words_from_pairs([("TIES", 50), ("TIED", 80), ("NOTE", 40)])
    off = compile_problem(parse_grid(TWO_ROWS), words, min_score=0, controls=Controls(locks={"1A": "TIES"}))
    on = compile_problem(
        parse_grid(TWO_ROWS), words, min_score=0, controls=Controls(locks={"1A": "TIES"}, distinct_stems=True)
    )
    tied = words.word_id("TIED")
    assert off.domains[1][tied] and not on.domains[1][tied]
    result = fill(on, "backtrack", Limits(time_limit_s=30))
    assert result.status is FillStatus.FILLED and result.fills[0][1] == "NOTE"
    assert result.stats.extra["pair_splits"] == 0  # nothing left for the search to split on


def test_check_fill_reports_two_entries_of_one_stem_only_when_the_rule_is_on():
    words = words_from_pairs([("TIES", 50), ("TIED", 50)])
    on = compile_problem(parse_grid(TWO_ROWS), words, controls=Controls(distinct_stems=True))
    off = compile_problem(parse_grid(TWO_ROWS), words)
    assert check_fill(on, ["TIES", "TIED"]) == ["1A TIES and 2A TIED share the stem TIE"]
    assert check_fill(off, ["TIES", "TIED"]) == []


def test_the_fill_says_which_words_the_stem_rule_skipped(backend):
    words = words_from_pairs([("TIES", 90), ("TIED", 80), ("NOTE", 40)])
    problem = compile_problem(parse_grid(TWO_ROWS), words, min_score=0, controls=Controls(distinct_stems=True))
    result = fill(problem, backend, Limits(time_limit_s=30))
    assert result.status is FillStatus.FILLED
    assert any("share the stem TIE" in why for why in result.stats.extra["skipped"])


def test_the_kernel_and_the_models_keep_the_stem_rule_without_a_split(backend):
    """Every backend keeps shared stems out itself (the kernel: stem groups beside no word twice; CP-SAT: at most
    one per group; SAT: lazy clauses): alone, it counts exactly the fills the checker accepts, and under
    `backends.fill` the split search has nothing to split on."""
    words = words_from_pairs([("TIES", 90), ("TIED", 80), ("NOTE", 40), ("TIER", 70), ("RUNS", 60)])
    problem = compile_problem(parse_grid(TWO_ROWS), words, min_score=0, controls=Controls(distinct_stems=True))
    assert fill(problem, backend, Limits(time_limit_s=30)).stats.extra["pair_splits"] == 0
    result = get_backend(backend).fill(problem, Limits(time_limit_s=30, count=0))  # the backend alone
    names = ["TIES", "TIED", "NOTE", "TIER", "RUNS"]
    kept = [(a, b) for a in names for b in names if a != b and check_fill(problem, [a, b]) == []]
    assert len(kept) == 18  # all 20 ordered pairs but TIES/TIED (TIER is its own stem to Snowball)
    assert sorted(result.fills) == sorted(kept)
    assert all(check_fill(problem, entries) == [] for entries in result.fills)


# --- no unfair crossings ---

NAMES = {"CAT", "TEN", "ERA", "TAR", "ART", "ACE", "NET", "EAT"}


def test_no_crossing_of_two_names_in_every_backend(backend):
    fills = brute_force_fills(RING, SMALL)

    def fair(rows):
        got = ring_entries(rows)
        return not any(got[a] in NAMES and got[d] in NAMES for a in ("1A", "3A") for d in ("1D", "2D"))

    ok = {f for f in fills if fair(f)}
    assert ok and ok != fills
    problem = ring_problem(Controls(no_crossing="name:name", tags_by_word={w: "name" for w in NAMES}))
    assert_one_of(problem, fill(problem, backend, Limits(time_limit_s=30)), ok)


def test_check_fill_names_the_unfair_crossing_and_its_cell():
    problem = ring_problem(Controls(no_crossing=["name:abbr"], tags_by_word=["CAT=name", "CAN=abbr"]))
    entries = {"1A": "CAT", "1D": "CAN", "2D": "TEE", "3A": "NEE"}
    got = check_fill(problem, [entries[s.name] for s in problem.slots])
    assert "1A CAT (name) crosses 1D CAN (abbr) at row 1, column 1" in got


def test_obscure_is_every_word_scored_below_fifty():
    words = words_from_pairs([(w, 30 if w in ("CAT", "CAN") else 60) for w in SMALL])
    problem = ring_problem(Controls(no_crossing="obscure:obscure"), words)
    entries = {"1A": "CAT", "1D": "CAN", "2D": "TEE", "3A": "NEE"}
    assert any("(obscure)" in v for v in check_fill(problem, [entries[s.name] for s in problem.slots]))


def test_an_unknown_tag_is_bad_input():
    with pytest.raises(InputError, match="'place' is not a tag"):
        Controls(no_crossing="name:place")
    with pytest.raises(InputError, match="expected TAG:TAG"):
        Controls(no_crossing="name")


def test_a_lists_third_column_tags_its_words_and_old_lists_stay_valid(tmp_path):
    path = tmp_path / "tagged.txt"
    path.write_text("ENO;60;name\nNCAA;50;abbr,name\nplain;50\nword\n")
    assert read_list_tags(path) == {"ENO": {"name"}, "NCAA": {"abbr", "name"}}
    from xwcp.words.wordlist import load_word_list

    words = load_word_list(path, use_cache=False)
    assert words.score("ENO") == 60 and words.score("PLAIN") == 50
    bad = tmp_path / "bad.txt"
    bad.write_text("ENO;60;place\n")
    with pytest.raises(InputError, match="bad.txt:1"):
        read_list_tags(bad)


def test_the_list_reader_knows_the_same_tags_and_refuses_others(tmp_path):
    from xwcp.compile.controls import TAGS
    from xwcp.words.wordlist import LIST_TAGS, parse_word_lines

    assert TAGS == LIST_TAGS
    scores, problems, _ = parse_word_lines("ENO;60;name\nXY;1;2\n", "w.txt")
    assert scores == {"ENO": 60} and problems == [(2, "'2' is not a tag (name, abbr, foreign, obscure)")]


def test_tags_are_read_from_the_lists_only_for_no_crossing(tmp_path):
    path = tmp_path / "tagged.txt"
    path.write_text("ENO;60;name\n")
    assert make_controls(tag_files=[path]).tags_by_word == {}
    assert make_controls(tag_files=[path], no_crossing=["name:name"]).tags_by_word == {"ENO": {"name"}}


def test_a_dictionarys_capitalised_stems_are_names_and_capitals_abbreviations(tmp_path):
    (tmp_path / "xx.aff").write_text("SET UTF-8\n")
    (tmp_path / "xx.dic").write_text("7\nParis/M\nNASA\nhouse/S\nO'Brien\n3D\nSpirit/M\nspirit/S\n")
    assert tagged_stems(tmp_path / "xx.dic") == {"Paris": "name", "NASA": "abbr", "O'Brien": "name"}


def test_a_complete_tagged_entry_takes_forbidden_partners_out_of_its_crossings():
    words = words_from_pairs([(w, 60) for w in SMALL])
    rows = "CAT\n.#.\n...\n"
    tags = {"CAT": "name", "CAN": "name", "CAR": "abbr", "ACE": "name"}
    off = compile_problem(parse_grid(rows), words, min_score=0, controls=Controls(tags_by_word=tags))
    on = compile_problem(
        parse_grid(rows), words, min_score=0, controls=Controls(no_crossing="name:name", tags_by_word=tags)
    )
    down_1, across_3 = on.slot_by_name("1D").id, on.slot_by_name("3A").id
    can, car, ace = (words.word_id(w) for w in ("CAN", "CAR", "ACE"))
    assert off.domains[down_1][can] and not on.domains[down_1][can]  # CAN (name) would cross CAT (name)
    assert on.domains[down_1][car]  # an abbreviation may
    assert on.domains[across_3][ace]  # 3A does not cross 1A
    obscure_words = words_from_pairs([(w, 30 if w in ("CAT", "CAN") else 60) for w in SMALL])
    obscure = compile_problem(
        parse_grid(rows), obscure_words, min_score=0, controls=Controls(no_crossing="obscure:obscure")
    )
    assert not obscure.domains[down_1][can]  # CAN (30) would cross CAT (30)
    assert compile_problem(parse_grid(rows), obscure_words, min_score=0).domains[down_1][can]
