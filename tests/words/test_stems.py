"""The stem rule's notion of one word: Snowball stems per pack, English agent nouns, compounds of listed words."""

from __future__ import annotations

import pytest
import snowballstemmer

from xwcp.model.alphabet import ENGLISH, load_alphabet
from xwcp.words.stems import STEMMER_BY_CODE, Stems, stem_clash_pairs, stemmer_name, stems_for

LISTED = {"ICECREAM", "SEE", "MAN", "MEN", "CONE", "HERE", "HERES", "FIRE", "CHESS", "HESS", "C", "IRON"}


def is_listed(text):
    """The tests' list as a `ScoreOf`: 50 for a listed text, None for another."""
    return 50 if text in LISTED else None


def listed_in(words):
    """A `ScoreOf` listing `words` at 50."""
    return lambda text: 50 if text in words else None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("RUNNER", "RUNS"),  # the agent noun is its verb
        ("RUNNING", "RUN"),
        ("SWIMMER", "SWIM"),
        ("TIES", "TIED"),
        ("NEARER", "NEAR"),
        ("ICECREAMCONE", "CONE"),  # a compound of two listed words
        ("FIREMAN", "FIRE"),
        ("SEEHERE", "HERES"),  # through the stem of HERES
    ],
)
def test_entries_of_one_stem_or_compound_clash(a, b):
    stems = Stems(ENGLISH)
    assert stems.clash(a, b, is_listed) is not None
    assert stems.clash(b, a, is_listed) is not None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("CHESS", "HESS"),  # the rest, C, is too short to be a word of a compound
        ("CELESTA", "LEST"),  # inside, not at an end
        ("ARTERY", "ART"),  # the piece is under 4 letters
        ("ATECROW", "EATERY"),  # no 4-letter piece in common, and no phrase reader given
        ("OVER", "OVEN"),
        ("FUNERAL", "FUNS"),
        (
            "IRONMEN",
            "IRONIC",
        ),  # Snowball stems IRONIC to IRON, but IRONIC is no form of IRON  # Snowball's FUNER is no agent noun: FUNERAL does not end in -ER
        ("TIES", "TIES"),  # the same word twice is the duplicate rule's
    ],
)
def test_unrelated_entries_do_not_clash(a, b):
    assert Stems(ENGLISH).clash(a, b, is_listed) is None


def test_a_compound_needs_its_rest_listed():
    assert Stems(ENGLISH).clash("ICECREAMCONE", "CONE", lambda text: None) is None


def test_the_reason_names_the_stem_or_the_pieces():
    stems = Stems(ENGLISH)
    assert stems.clash("RUNNER", "RUNS") == "share the stem RUN"
    assert stems.clash("CONE", "ICECREAMCONE", is_listed) == "ICECREAMCONE is CONE joined to ICECREAM"


def test_clash_pairs_name_slots_in_order_and_keep_to_the_open_ones():
    stems = Stems(ENGLISH)
    entries = {0: "RUNS", 1: "NOTE", 2: "RUNNER", 3: "NOTES"}
    assert [(a, b) for a, b, _ in stem_clash_pairs(entries, stems)] == [(0, 2), (1, 3)]
    assert [(a, b) for a, b, _ in stem_clash_pairs(entries, stems, only=[3])] == [(1, 3)]


def test_every_named_stemmer_is_one_snowball_has():
    assert set(STEMMER_BY_CODE.values()) <= set(snowballstemmer.algorithms())


def test_each_pack_with_a_snowball_stemmer_uses_it():
    german = load_alphabet("de")
    assert stemmer_name(german) == "german"
    stems = stems_for(german)
    katzen, katze, haus = (german.typed_word(w).word for w in ("KATZEN", "KATZE", "HÄUSER"))
    assert stems.stem(katzen) == stems.stem(katze) == "katz"
    assert stems.clash(katzen, katze) == "share the stem KATZ"
    assert stems.stem(haus) == "haus"


def test_a_pack_without_a_stemmer_compares_whole_entries():
    welsh = load_alphabet("cy")
    assert stemmer_name(welsh) is None
    stems = Stems(welsh)
    assert stems.stem("CATH") == "cath"
    assert stems.clash("CATH", "CATHOD") is None  # no stem, and CATHOD is not CATH joined to a 3-letter word


def test_clashing_words_are_exactly_the_bucket_words_that_clash_with_a_fixed_entry():
    from xwcp.words.stems import clashing_words
    from xwcp.words.wordlist import words_from_pairs

    words = ["RUNNERS", "RUNNELS", "ICECONE", "CONESKI", "SKIRUNS", "TRUNKED", "SCONERS", "ICERUNS"]
    listed = words_from_pairs([(w, 50) for w in [*words, "SKI", "ICE", "RUNS", "CONE"]])
    bucket = listed.bucket(7)
    stems = Stems(ENGLISH)

    got = clashing_words(bucket, ["RUNS", "CONE"], stems, listed.score)
    expected = {
        bucket.text(i)
        for i in range(bucket.n_words)
        if any(stems.clash(bucket.text(i), f, listed.score) for f in ("RUNS", "CONE"))
    }
    assert {bucket.text(i) for i in range(bucket.n_words) if got[i]} == expected
    assert expected == {"RUNNERS", "ICECONE", "CONESKI", "SKIRUNS", "ICERUNS"}  # not TRUNKED, SCONERS, RUNNELS


# --- irregular forms, -ERY, the words of a phrase ---

PHRASES = {"ATECROW": ("ATE", "CROW"), "RUNNELS": ("RUN", "NELS"), "CELESTA": ("CELE", "ST", "A")}
"""A fixed phrase reader, so these tests do not depend on wordfreq or WordNet being installed."""
WORDS = {"ATE", "CROW", "EAT", "EATER", "EATERY", "EATS", "ART", "ARTERY", "RUN", "RUNS", "LEST", "CELESTA"}


def test_atecrow_and_eatery_share_eat():
    """ATE is EAT (WordNet's irregular forms), EATERY is EATER + Y (the -ER word is listed) and so EAT, and ATECROW
    is the phrase ATE CROW: the two share the word EAT."""
    stems = Stems(ENGLISH, lambda written, score_of: PHRASES.get(written, ()))
    assert stems.clash("ATECROW", "EATERY", listed_in(WORDS)) == "share the word EAT"
    assert stems.clash("ATE", "EATS", listed_in(WORDS)) == "share the stem EAT"
    assert stems.clash("EATERY", "EATS", listed_in(WORDS)) == "share the stem EAT"
    assert stems.clash("RUNNER", "RUNS", listed_in(WORDS)) == "share the stem RUN"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ARTERY", "ART"),  # no ARTER listed: -ERY stays
        ("RUNNELS", "RUNS"),  # NELS is not listed: no RUN NELS
        ("CELESTA", "LEST"),  # a cut with a 2-letter piece is no phrase
        ("ATECROW", "EATERY"),  # (with no list) EATER is not known to be a word, so EATERY keeps its stem
    ],
)
def test_phrases_and_derivations_need_listed_words(a, b):
    stems = Stems(ENGLISH, lambda written, score_of: PHRASES.get(written, ()))
    listed = listed_in(WORDS) if (a, b) != ("ATECROW", "EATERY") else listed_in({"ATE", "CROW"})
    assert stems.clash(a, b, listed) is None


def test_english_reads_phrases_and_other_packs_do_not():
    from xwcp.words.stems import phrase_parts

    assert stems_for(ENGLISH).split_phrase is phrase_parts
    assert stems_for(load_alphabet("de")).split_phrase is None
    assert phrase_parts("EAT") == ()  # under PHRASE_MIN_LETTERS: never cut


def test_the_shipped_irregular_table_reads_ate_as_eat_and_keeps_common_words():
    from xwcp.words.irregular import LICENCE_FILE, lemma_by_form

    table = lemma_by_form()
    assert table["ate"] == "eat" and table["mice"] == "mouse" and table["ran"] == "run"
    assert "rose" not in table and "left" not in table and "saw" not in table  # words of their own
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in LICENCE_FILE.read_text()


def test_stem_groups_put_irregular_and_ery_forms_with_their_verb():
    from xwcp.words.stems import stem_groups
    from xwcp.words.wordlist import words_from_pairs

    listed = words_from_pairs([(w, 50) for w in WORDS])
    groups = stem_groups(listed, Stems(ENGLISH))

    def group(text):
        return int(groups.of_length(len(text))[listed.word_id(text)])

    assert group("ATE") == group("EAT") == group("EATS") == group("EATER") == group("EATERY") >= 0
    assert group("ART") != group("ARTERY") or group("ART") == -1
    assert group("CROW") == -1  # a stem no other word has


def test_a_locked_entry_takes_its_irregular_forms_out_before_the_search():
    """EAT locked: ATE (its irregular form, which does not start with EAT) is found and taken out of a 3-letter
    slot before the search, as EATS would be out of a 4-letter one."""
    from xwcp.words.stems import clashing_words
    from xwcp.words.wordlist import words_from_pairs

    listed = words_from_pairs([(w, 50) for w in ("ATE", "EAT", "TEA", "ARE")])
    bucket = listed.bucket(3)
    got = clashing_words(bucket, ["EAT"], Stems(ENGLISH), listed.score)
    assert {bucket.text(i) for i in range(bucket.n_words) if got[i]} == {"ATE"}


def test_one_stems_object_is_safe_across_threads():
    """The quality search stems in two threads at once through one `stems_for` object; a Snowball stemmer keeps its
    word in itself, so unguarded calls mix two words' stems up (SCREEN read as BANE)."""
    import threading

    words = ["running", "screen", "banes", "national", "eateries", "swimmers", "generally", "ties"] * 400
    expected = {w: Stems(ENGLISH).stem_text(w) for w in set(words)}
    shared = Stems(ENGLISH)
    wrong: list[str] = []

    def work(order):
        for w in order:
            if shared.stem_text(w) != expected[w]:
                wrong.append(w)

    threads = [threading.Thread(target=work, args=(words[k::3] + words,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


# --- phrases by the word list alone (no wordfreq, no WordNet) ---


def _ate_crow_list():
    from tests.words.phrase_sources import ATE_CROW_LIST

    return {line.split(";")[0]: int(line.split(";")[1]) for line in ATE_CROW_LIST.splitlines()}


def test_atecrow_and_eatery_share_eat_by_the_word_list_alone(monkeypatch):
    """Without wordfreq and WordNet the list's own entries read ATECROW as ATE CROW: the library's fill skips
    EATERY, its check fills around ATECROW without it, and `check_fill` rejects the two together."""
    import xwcp
    from tests.helpers import entries_of
    from tests.words.phrase_sources import ATE_CROW_GRID, switch_off_phrase_sources
    from xwcp.engine.result import check_fill

    switch_off_phrase_sources(monkeypatch)
    scores = _ate_crow_list()
    assert stems_for(ENGLISH).clash("ATECROW", "EATERY", scores.get) == "share the word EAT"
    answer = xwcp.fill(ATE_CROW_GRID, scores, min_score=0, distinct_stems=True)
    assert answer.status is xwcp.FillStatus.FILLED and answer.rows[::2] == ["ATECROW", "SAILOR#"]
    assert check_fill(answer.problem, entries_of(answer.problem, answer.rows)) == []
    assert any("share the word EAT" in why for why in answer.stats.extra.get("skipped", ()))
    both = check_fill(answer.problem, entries_of(answer.problem, ["ATECROW", "#######", "EATERY#"]))
    assert any("share the word EAT" in why for why in both)
    checked = xwcp.check(ATE_CROW_GRID.replace(".......", "ATECROW", 1), scores, min_score=0, distinct_stems=True)
    assert checked.verdict is xwcp.Verdict.FILLABLE and checked.fill is not None and checked.fill[2] == "SAILOR#"
    off = xwcp.fill(ATE_CROW_GRID, scores, min_score=0, distinct_stems=False)
    assert off.rows[::2] == ["ATECROW", "EATERY#"]  # the rule, not the list, keeps them apart


def test_stem_groups_do_not_read_phrases(monkeypatch):
    """The stem groups (cached on disk by the list and the stemmer) hold stems and roots only, never phrase words:
    the phrase source a machine has cannot change them, so it is no part of their cache key."""
    from tests.words.phrase_sources import switch_off_phrase_sources
    from xwcp.words.stems import stem_groups
    from xwcp.words.wordlist import words_from_pairs

    listed = words_from_pairs(list(_ate_crow_list().items()))
    with_sources = stem_groups(listed, Stems(ENGLISH, stems_for(ENGLISH).split_phrase)).group_by_word.copy()
    switch_off_phrase_sources(monkeypatch)
    without = stem_groups(listed, Stems(ENGLISH, stems_for(ENGLISH).split_phrase)).group_by_word
    assert with_sources.tolist() == without.tolist()


# --- agent nouns: WordNet's reading, not the spelling alone ---


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("RUNNER", "RUN"),
        ("RUNNERS", "RUNS"),
        ("BAKER", "BAKE"),  # the table's verb: BAKE, not the spelling's BAK
        ("BAKERS", "BAKING"),
        ("EATER", "EATS"),
        ("WRITER", "WRITE"),
        ("NEARER", "NEAR"),  # a comparative is left to the spelling test
        ("SMALLER", "SMALL"),
        ("PODCASTER", "PODCAST"),  # a word WordNet lacks: by its spelling
    ],
)
def test_an_agent_noun_shares_its_verbs_stem(a, b):
    assert Stems(ENGLISH).clash(a, b, lambda text: None) is not None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("CORNER", "CORN"),  # no agent noun at all
        ("SEWER", "SEW"),  # the drain (tagged 4 times) over one who sews (once)
        ("BETTER", "BET"),  # the adjective over one who bets
        ("BATTER", "BAT"),  # the verb and the mixture over the one at bat
        ("CHEER", "CHE"),
        ("PEPPER", "PEP"),
        ("PEPPERY", "PEP"),  # -ERY to PEPPER, which stays itself
    ],
)
def test_a_word_in_er_that_is_no_agent_noun_keeps_its_stem(a, b):
    assert Stems(ENGLISH).clash(a, b, lambda text: 50 if text == "PEPPER" else None) is None


def test_the_shipped_agent_table_is_wordnets_and_rebuilds_the_same():
    from pathlib import Path

    from xwcp.words.agents import NOT_AN_AGENT, TABLE_FILE, build_table, verb_by_agent

    table = verb_by_agent()
    assert table["runner"] == "run" and table["baker"] == "bake" and table["eater"] == "eat"
    assert table["corner"] == table["sewer"] == table["better"] == table["batter"] == NOT_AN_AGENT
    assert "nearer" not in table and "podcaster" not in table
    wordnet = Path("/usr/share/wordnet")
    if not (wordnet / "cntlist.rev").is_file():
        pytest.skip("WordNet's data files are not installed here (Debian's wordnet-base)")
    assert "".join(f"{w} {v}\n" for w, v in build_table(wordnet)) == TABLE_FILE.read_text("utf-8")


def test_the_stem_group_cache_key_follows_the_shipped_tables(tmp_path, monkeypatch):
    """The groups are kept on disk by list and stemmer: a new agent-noun table must not read old groups."""
    from xwcp.words import agents
    from xwcp.words.stems import _groups_path
    from xwcp.words.wordlist import words_from_pairs

    listed = words_from_pairs([("RUNNER", 50), ("CORNER", 50)])
    before = _groups_path(listed, Stems(ENGLISH))
    changed = tmp_path / "agents.txt"
    changed.write_text(agents.TABLE_FILE.read_text("utf-8").replace("corner -\n", "corner corn\n"), "utf-8")
    monkeypatch.setattr(agents, "TABLE_FILE", changed)
    assert _groups_path(listed, Stems(ENGLISH)) != before
