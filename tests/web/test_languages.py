"""xwcp/web/languages.py: the packs the page offers, a language's list per request (the page's upload, a built list),
and a language without a list refused in one line instead of filled in English."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")

from tests.helpers import hindi_ring  # noqa: E402
from tests.web.helpers import _fill  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.words.userwords import data_dir  # noqa: E402

RING = ["...", ".#.", "..."]
GERMAN = "HUT;80\nHAT;70\nTAL;70\nTOL;70\nUHR;60\n"


def test_languages_lists_every_pack_with_its_letters_direction_and_list(client):
    packs = {p["code"]: p for p in client.get("/api/languages").json()}
    assert packs["en"]["list"]["kind"] == "server" and packs["es"]["list"] is None
    assert packs["en"]["served"] and not packs["es"]["served"] and packs["es"]["size"] == 27
    assert "Ñ" in packs["es"]["letters"] and packs["he"]["direction"] == "rtl"
    nl = packs["nl"]
    assert "IJ" in nl["letters"] and len(nl["chars"]) == len(nl["letters"])
    assert 0xE000 <= ord(nl["chars"][nl["letters"].index("IJ")]) < 0xF900  # a private-use code char


def test_a_language_without_a_list_is_refused_not_filled_in_english(client):
    response = client.post("/api/heatmap", json={"grid": RING, "language": "es"})
    assert response.status_code == 409
    error = response.json()["error"]
    assert "no Spanish" in error and "xwcp words build --language es" in error and "\n" not in error
    with client.websocket_connect("/ws/fill") as ws:
        _, end = _fill(ws, {"grid": RING, "language": "es"})
    assert end["type"] == "error" and end["status"] == 409
    response = client.post("/api/heatmap", json={"grid": RING, "language": "../../etc/passwd"})
    assert response.status_code == 400 and "language must be one of" in response.json()["error"]


def test_an_uploaded_list_serves_its_language(client):
    response = client.post("/api/languages/de/words?name=de.txt", content=GERMAN.encode())
    assert response.status_code == 200 and response.json()["n_words"] == 5
    assert (data_dir() / "words" / "de-page.dict").is_file()
    packs = {p["code"]: p for p in client.get("/api/languages").json()}
    assert packs["de"]["list"]["kind"] == "uploaded"
    words = client.post("/api/suggest", json={"grid": ["H..", ".#.", "..."], "language": "de", "slot": "1A"}).json()
    assert {w["word"] for w in words["words"]} == {"HUT", "HAT"}  # the German list's, not the English list's HEN...
    with client.websocket_connect("/ws/fill") as ws:
        _, end = _fill(ws, {"grid": RING, "language": "de", "time_limit_s": 5})
    assert end["type"] == "result" and end["status"] == "filled", end
    import xwcp
    from xwcp.model.alphabet import load_alphabet
    from xwcp.words.wordlist import load_word_list

    words_de = load_word_list(data_dir() / "words" / "de-page.dict", alphabet=load_alphabet("de"))
    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(RING)), words_de)
    from tests.helpers import entries_of

    assert check_fill(problem, entries_of(problem, end["grid"])) == []
    # the English requests still use the server's list
    english = client.post("/api/suggest", json={"grid": ["H..", ".#.", "..."], "slot": "1A", "k": 5}).json()
    assert len(english["words"]) == 5


def test_a_list_with_no_word_of_the_language_is_refused_in_one_line(client):
    response = client.post("/api/languages/ru/words?name=latin.txt", content=b"HOUSE;50\nCAT;50\n")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error.startswith("latin.txt") and "\n" not in error
    assert not (data_dir() / "words" / "ru-page.dict").exists()
    assert client.post("/api/languages/xx/words", content=b"A;1\n").status_code == 400


def test_a_built_list_serves_its_language(client):
    folder = data_dir() / "words"
    os.makedirs(folder, exist_ok=True)
    (folder / "de-wordfreq.dict").write_text(GERMAN, encoding="utf-8")
    (folder / "de-umlaut-wordfreq.dict").write_text("ÄRA;50\n", encoding="utf-8")  # another pack's list
    packs = {p["code"]: p for p in client.get("/api/languages").json()}
    assert packs["de"]["list"] == {"source": str(folder / "de-wordfreq.dict"), "kind": "built"}
    response = client.post("/api/suggest", json={"grid": ["H..", ".#.", "..."], "language": "de", "slot": "1A"})
    assert {w["word"] for w in response.json()["words"]} == {"HUT", "HAT"}


def test_hindi_aksharas_are_read_and_answered_as_written(client):
    """Hindi's letters beyond its pack are its list's aksharas, numbered in the server only: a cell the page sends
    as written (`[डु]`) is one letter, and the answers write them out (there were two crashes here: probing and
    labelling ran the compiled kernels, which take 64 letters, on a list of some 170)."""
    ring, text = hindi_ring()
    assert client.post("/api/languages/hi/words?name=hi.txt", content=text.encode()).status_code == 200
    grid = [f"[{ring[0][0]}]..", ".#.", "..."]
    answer = client.post("/api/suggest", json={"grid": grid, "language": "hi", "slot": "1A", "k": 40})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["slot"]["pattern"] == ring[0][0] + ".."
    assert "".join(ring[0]) in [w["word"] for w in data["words"]]
    assert all(w["word"].startswith(ring[0][0]) for w in data["words"])
    labels = client.post(
        "/api/suggest", json={"grid": grid, "language": "hi", "slot": "1A", "k": 40, "verify": True, "time_limit_s": 10}
    ).json()
    assert {w["word"]: w["verdict"] for w in labels["words"]}["".join(ring[0])] == "viable"


@pytest.mark.parametrize(
    ("code", "listed", "grid", "expected"),
    [
        ("el", "άν;50\nαβ;50\nνε;50\nβε;50\n", ["[ά].", "[ν]."], {"ΑΒ"}),
        ("ru", "ёж;50\nел;50\nжа;50\nла;50\n", ["[ё].", "[ж]."], {"ЕЛ"}),
        ("de", "Maß;50\nMAT;40\nME;50\nAN;50\nSSO;50\nENO;50\n", ["MA[ß]", "..."], {"ENO"}),
    ],
)
def test_a_grid_takes_the_letters_its_list_folds(client, code, listed, grid, expected):
    """The page's cells fold as the language's list folds them: ά is Α, ё is Е, German ß the two letters SS."""
    assert client.post(f"/api/languages/{code}/words?name={code}.txt", content=listed.encode()).status_code == 200
    slot = "4A" if code == "de" else "1A"
    response = client.post("/api/suggest", json={"grid": grid, "language": code, "slot": slot, "k": 10})
    assert response.status_code == 200, response.text
    assert {w["word"] for w in response.json()["words"]} == expected


def test_a_hebrew_fill_result_writes_its_entries_with_final_letters(client):
    """The fill's `entries` (for a client other than the page) end in a final form where the pack has one; the
    grid's cells stay the letters the page matches on (it draws the final forms itself)."""
    listed = "אבמ;80\nארכ;70\nמסצ;70\nכלצ;70\nשלומ;60\n"  # RING's one fill: 1A אבם, 1D ארך, 2D מסץ, 3A כלץ
    assert client.post("/api/languages/he/words?name=he.txt", content=listed.encode()).status_code == 200
    with client.websocket_connect("/ws/fill") as ws:
        _, end = _fill(ws, {"grid": RING, "language": "he", "time_limit_s": 5})
    assert end["type"] == "result" and end["status"] == "filled", end
    assert end["entries"] == {"1A": "אבם", "1D": "ארך", "2D": "מסץ", "3A": "כלץ"}
    assert ["".join(row) for row in end["contents"]] == ["אבמ", "ר#ס", "כלצ"]


def test_a_hindi_list_past_one_byte_of_aksharas_is_answered_as_written(client):
    """A Hindi list of 555 aksharas (more letters than one byte holds): every word is kept, a cell holding one of
    the rarest is read as one letter, and the answers write the aksharas out."""
    aksharas = [chr(c) + chr(s) for c in range(0x0915, 0x093A) for s in range(0x093E, 0x094D)]
    words = ["".join(aksharas[k : k + 3]) for k in range(0, len(aksharas) - 2)]
    assert client.post("/api/languages/hi/words?name=hi.txt", content="\n".join(words).encode()).status_code == 200
    last = aksharas[-3]  # in one word only, the last listed
    answer = client.post("/api/suggest", json={"grid": [f"[{last}].."], "language": "hi", "slot": "1A"})
    assert answer.status_code == 200, answer.text
    assert [w["word"] for w in answer.json()["words"]] == ["".join(aksharas[-3:])]
