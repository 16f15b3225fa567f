"""Hostile uploads of issue 34's audit, made again: each a (file name, bytes) the builder's POST /api/open receives.

Built here rather than kept as files: a zip bomb is kilobytes built and gigabytes read, and every input says
in its maker how it is hostile. Used by tests/web/test_hostile.py (the server answers each in bounded time and
memory while /api/info stays quick).
"""

from __future__ import annotations

import functools
import http.client
import io
import json
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

from xwcp.runtime.isolation import tree_rss_mb

JPZ_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<crossword-compiler-applet xmlns="http://crossword.info/xml/'
    'crossword-compiler"><rectangular-puzzle xmlns="http://crossword.info/xml/rectangular-puzzle">'
)


def _jpz(grid_cells: str, words: str, clues: str, title: str = "T") -> bytes:
    return (
        f"{JPZ_HEAD}<metadata><title>{title}</title></metadata><crossword>"
        f'<grid width="3" height="3"><grid-look numbering-scheme="normal"/>{grid_cells}</grid>'
        f'{words}<clues ordering="normal"><title>Across</title>{clues}</clues></crossword>'
        "</rectangular-puzzle></crossword-compiler-applet>"
    ).encode()


def _cells_3x3() -> str:
    return "".join(f'<cell x="{x}" y="{y}" solution="A"/>' for y in range(1, 4) for x in range(1, 4))


def jpz_zip_bomb() -> tuple[str, bytes]:
    """A zipped .jpz of about 1 MB whose one member inflates to 1 GiB of spaces and says it holds 1 KB."""
    member = zipfile.ZipInfo("puzzle.jpz")
    member.compress_type = zipfile.ZIP_DEFLATED
    out = io.BytesIO()
    chunk = b" " * (1 << 20)
    with zipfile.ZipFile(out, "w") as archive, archive.open(member, "w", force_zip64=True) as stream:
        stream.write(_jpz(_cells_3x3(), "", "")[:40])
        for _ in range(1024):
            stream.write(chunk)
    data = bytearray(out.getvalue())
    # the false declared size: 1 KB in the local header and the central directory (zip64 extra fields too)
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.index(signature)
        struct.pack_into("<I", data, at + size_at, 1024)
    return "bomb.jpz", bytes(data)


def jpz_huge_span() -> tuple[str, bytes]:
    """A 1 KB .jpz whose word spans cells 1 to 999,999,999."""
    words = '<word id="1"><cells x="1-999999999" y="1"/></word><word id="2" x="1-999999999" y="1"/>'
    return "span.jpz", _jpz(_cells_3x3(), words, '<clue word="2" number="1">Span</clue>')


def jpz_nested_markup(depth: int = 5000) -> tuple[str, bytes]:
    """A .jpz whose clue and title are `depth` nested <i> elements."""
    nested = "<i>" * depth + "X" + "</i>" * depth
    words = '<word id="1" x="1-3" y="1"/>'
    return "nested.jpz", _jpz(_cells_3x3(), words, f'<clue word="1" number="1">{nested}</clue>', title=nested)


def xd_unclosed_comments(size_bytes: int = 160_000) -> tuple[str, bytes]:
    """An .xd of `size_bytes` made of unclosed `<!--` (the comment scanner went quadratic)."""
    return "comments.xd", ("Title: x\n\n\n" + "<!--" * (size_bytes // 4)).encode()


def ipuz_deep_json(depth: int = 100_000) -> tuple[str, bytes]:
    """An .ipuz whose `notes` is `depth` nested JSON arrays."""
    return "deep.ipuz", (
        '{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"], '
        '"dimensions": {"width": 3, "height": 3}, "notes": ' + "[" * depth + "]" * depth + "}"
    ).encode()


def ipuz_infinite_width() -> tuple[str, bytes]:
    """An .ipuz whose width is JSON's Infinity and height a 5,000-digit number."""
    return "inf.ipuz", (
        '{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"], '
        '"dimensions": {"width": Infinity, "height": ' + "9" * 5000 + '}, "puzzle": [], '
        '"solution": []}'
    ).encode()


def json_entry_id_list() -> tuple[str, bytes]:
    """An xwcp .json whose entry id is a list."""
    return "entries.json", json.dumps({"grid": ["...", "...", "..."], "entries": [{"id": [1]}]}).encode()


def txt_huge_number() -> tuple[str, bytes]:
    """A .txt grid whose `; numbers:` line has a 5,000-digit number."""
    return "numbers.txt", ("...\n...\n...\n; numbers: " + "9" * 5000 + "\n").encode()


def txt_language_file() -> tuple[str, bytes]:
    """A .txt grid whose `; language:` line names a file every server has (it must name a pack, never a file)."""
    return "passwd.txt", b"; language: /etc/passwd\n...\n...\n...\n"


def txt_language_nowhere() -> tuple[str, bytes]:
    """The same grid naming a file no server has: answered exactly as the one above, but for the name."""
    return "nowhere.txt", b"; language: /etc/no-such-file\n...\n...\n...\n"


def puz_locked_60x60() -> tuple[str, bytes]:
    """A locked 60x60 .puz (7 KB) that no key opens: the key search tries all 10,000 keys on the whole grid."""
    import puz

    p = puz.Puzzle()
    p.width = p.height = 60
    rows = [
        "".join("." if (r * 7 + c * 3) % 11 == 0 else "ABCDEFGHIJ"[(r + c) % 10] for c in range(60)) for r in range(60)
    ]
    p.solution = "".join(rows)
    p.fill = "".join("." if ch == "." else "-" for ch in p.solution)
    p.clues = ["clue"] * sum(1 for _ in range(_n_slots(rows)))
    p.title, p.author, p.copyright = "Locked", "A", "C"
    p.lock_solution(1234)
    data = bytearray(p.tobytes())
    at = data.index(b"ACROSS&DOWN") - 2 + 0x1E  # the scrambled checksum, off by one: no key fits
    struct.pack_into("<H", data, at, (struct.unpack_from("<H", data, at)[0] + 1) & 0xFFFF)
    return "locked.puz", bytes(data)


def _n_slots(rows: list[str]) -> int:
    count = 0
    for lines in (rows, ["".join(col) for col in zip(*rows)]):
        for line in lines:
            count += sum(1 for run in line.split(".") if len(run) >= 2)
    return count


HOSTILE_FILES = {
    "jpz zip bomb": jpz_zip_bomb,
    "jpz span 1-999999999": jpz_huge_span,
    "jpz 5,000 nested <i>": jpz_nested_markup,
    "xd 160 KB of <!--": xd_unclosed_comments,
    "ipuz nested JSON": ipuz_deep_json,
    "ipuz Infinity width": ipuz_infinite_width,
    "json entry id [1]": json_entry_id_list,
    "txt 5,000-digit number": txt_huge_number,
    "puz locked 60x60": puz_locked_60x60,
    "txt language: /etc/passwd": txt_language_file,
    "txt language: /etc/no-such-file": txt_language_nowhere,
}
"""What the audit uploaded to POST /api/open, by a short name."""


def slow_open(name: str, data: bytes) -> None:
    """A stand-in for a reader that never ends (xwcp.web.puzzles.open_job's signature)."""
    time.sleep(60)


def greedy_open(name: str, data: bytes) -> tuple[str, int, tuple[str, ...]]:
    """A stand-in for a reader that takes 2 GB."""
    return "ok", len(bytearray(2 << 30)), ()


def crashing_open(name: str, data: bytes) -> None:
    """A stand-in for a reader that crashes, with a long message on two lines."""
    raise TypeError("unhashable type: 'list'\nand a second line " + "x" * 5000)


def huge_word_list(letters: int = 1 << 20) -> bytes:
    """A personal list upload of one word of `letters` letters."""
    return b"ESNE;60\n" + b"A" * letters + b";50\n"


# ----- request bodies with numbers Python's json module chokes on, nesting, bytes that are no UTF-8 -----------------

HUGE_NUMBERS = (
    "9" * 5000,
    "-" + "9" * 4301,
    "1" * 31,
    "1e400",
    "-1e999",
    "2.5e" + "0" * 40,
    "1." + "1" * 5000,
    "1e" + "9" * 5000,
    "NaN",
    "Infinity",
    "-Infinity",
)
"""Numbers a JSON body may spell: past Python's 4,300-digit int limit, past a float's range, endless mantissas and
exponents, and the json module's NaN and Infinity (no JSON at all)."""
BODY_BASE = {
    "grid": ["ADS#...", "...#...", ".......", "##...##", ".......", "...#...", "...#..."],
    "slot": "4A",
    "k": 3,
    "time_limit_s": 1,
    "seed": 0,
    "min_score": 50,
}
"""A good request (a 7x7 and a slot) whose fields the hostile bodies spoil."""


def hostile_json_bodies():
    """A hypothesis strategy of request bodies (bytes) that are `BODY_BASE` with one to three fields (its own or a
    new one) spoiled: a huge number (`HUGE_NUMBERS`, or a drawn run of digits, exponent or mantissa), nesting up
    to 3,000 deep, a value of the wrong type, and at times a byte that is no UTF-8 or the body cut short. At least
    one spoilt field is a number or nesting the parse must refuse, so no body is a good request."""
    from hypothesis import strategies as st

    digits = st.integers(31, 6000).map(lambda n: "9" * n)
    numbers = st.one_of(
        st.sampled_from(HUGE_NUMBERS),
        digits,
        digits.map(lambda d: "-" + d),
        digits.map(lambda d: "1e" + d),
        digits.map(lambda d: "0." + d),
    )
    nesting = st.integers(33, 3000).flatmap(
        lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n + "1" + "]" * n])
    )
    refused = st.one_of(numbers, nesting, numbers.map(lambda n: f"[{n}]"), numbers.map(lambda n: f'{{"x": {n}}}'))
    wrong_types = st.sampled_from(['"x"', "true", "null", "[]", "{}", "[1, 2]", '["#", 5]', "-1", "2.5", '{"grid": 1}'])
    keys = st.sampled_from([*BODY_BASE, "themes", "words", "clues", "format", "type", "id", "new"])

    @st.composite
    def bodies(draw) -> bytes:
        fields = draw(st.lists(st.tuples(keys, st.booleans()), min_size=1, max_size=3))
        data: dict[str, object] = dict(BODY_BASE)
        raws = []
        for k, (key, spoil) in enumerate(fields):
            data[key] = f"@@{k}@@"
            raws.append(draw(refused) if spoil or k == 0 else draw(st.one_of(wrong_types, refused)))
        text = json.dumps(data)
        for k, raw in enumerate(raws):
            text = text.replace(f'"@@{k}@@"', raw, 1)
        body = text.encode()
        form = draw(st.sampled_from(["whole", "whole", "not utf-8", "cut"]))
        if form == "not utf-8":
            at = draw(st.integers(0, len(body)))
            body = body[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + body[at:]
        elif form == "cut":
            body = body[: draw(st.integers(0, len(body) - 1))]
        return body

    return bodies()


# ----- a server under attack: run it, send the inputs, watch /api/info and its memory -----------------------------

SERVER_CODE = """
import sys, uvicorn
from xwcp.web import http
from xwcp.web.app import create_app
if hasattr(http, "BODY_TIMEOUT_S"):
    http.BODY_TIMEOUT_S = float(sys.argv[2])
app = create_app()
try:
    from xwcp.web.puzzles import warm_up
    warm_up()
except ImportError:
    pass
print("ready", flush=True)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""
"""The server the attack runs against: the builder as `xwcp serve` builds it; argv: port, body timeout (s)."""


@dataclass
class Row:
    """One input's answer: its HTTP status (or WebSocket close code), seconds to the answer, whether the answer was
    JSON, the server's peak memory (its process tree's RSS) and /api/info's worst latency while it ran."""

    name: str
    status: int | None = None
    seconds: float = 0.0
    json_answer: bool = False
    detail: str = ""
    peak_rss_mb: float = 0.0
    info_worst_s: float = 0.0


class Attack:
    """A builder server in a subprocess (uvicorn on a free port), a thread polling GET /api/info every 0.1 s and a
    thread sampling its memory; `run(name, send)` times one input and keeps its Row."""

    def __init__(
        self, tree: str, body_timeout_s: float = 3.0, data_dir: str | None = None, memory_cap_gb: float | None = None
    ):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": tree, "XWCP_DATA_DIR": data_dir or tempfile.mkdtemp(prefix="xwcp-data-")}

        def cap() -> None:  # the audit's safety net: a server that grows without bound stops at this cap
            if memory_cap_gb:
                limit = int(memory_cap_gb * (1 << 30))
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER_CODE, str(self.port), str(body_timeout_s)],
            cwd=tree,
            env=env,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            preexec_fn=cap,
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            self.log.seek(0)
            raise RuntimeError(f"the server did not start: {self.log.read()[-2000:]}")
        self.rows: list[Row] = []
        self.current: Row | None = None
        self.info_worst_s = 0.0
        self.peak_rss_mb = 0.0
        self.info_failures: list[str] = []
        self._stop = threading.Event()
        self._ticked = threading.Condition()  # a poll or a sample done: `run` waits for the aftermath's
        self._polls = self._samples = 0
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/api/info", timeout_s=1)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server does not answer"
                time.sleep(0.1)
        self._threads = [
            threading.Thread(target=self._poll, daemon=True),
            threading.Thread(target=self._sample, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def get(self, path: str, headers: dict[str, str] | None = None, timeout_s: float = 30) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout_s)
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def post(self, path: str, body: bytes, timeout_s: float = 120) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout_s)
        try:
            connection.request("POST", path, body=body, headers={"Content-Type": "application/octet-stream"})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def _poll(self) -> None:
        while not self._stop.is_set():
            row, start = self.current, time.monotonic()
            try:
                status, _ = self.get("/api/info", timeout_s=120)
                if status != 200:
                    self.info_failures.append(f"{row.name if row else '-'}: /api/info answered {status}")
            except OSError as exc:
                if self._stop.is_set():
                    return
                self.info_failures.append(f"{row.name if row else '-'}: /api/info failed: {exc}")
            took = time.monotonic() - start
            self.info_worst_s = max(self.info_worst_s, took)
            if row is not None:
                row.info_worst_s = max(row.info_worst_s, took)
            with self._ticked:
                self._polls += 1
                self._ticked.notify_all()
            self._stop.wait(0.1)

    def _sample(self) -> None:
        while not self._stop.is_set():
            rss = tree_rss_mb(self.process.pid)
            self.peak_rss_mb = max(self.peak_rss_mb, rss)
            row = self.current
            if row is not None:
                row.peak_rss_mb = max(row.peak_rss_mb, rss)
            with self._ticked:
                self._samples += 1
                self._ticked.notify_all()
            self._stop.wait(0.05)

    def run(self, name: str, send: Callable[[], tuple[int | None, bytes | str]]) -> Row:
        """Time `send()` (-> status or close code, the answer's bytes) as the input `name`; the Row is kept."""
        row = Row(name)
        self.current = row
        start = time.monotonic()
        try:
            row.status, answer = send()
        except Exception as exc:  # a dropped connection, a timeout: the row says so
            answer = f"{exc.__class__.__name__}: {exc}"
        row.seconds = time.monotonic() - start
        if isinstance(answer, bytes):
            try:
                data = json.loads(answer)
                row.json_answer = isinstance(data, dict) and ("error" in data or "puzzle" in data or "entries" in data)
                answer = str(data.get("error", "ok") if isinstance(data, dict) else data)
            except ValueError:
                answer = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else answer
        else:
            row.json_answer = False
        row.detail = answer[:160].replace("\n", " ")
        with self._ticked:  # the aftermath: a whole poll begun after the answer (the second to end), and a sample
            polls, samples = self._polls, self._samples
            self._ticked.wait_for(lambda: self._polls >= polls + 2 and self._samples >= samples + 1, timeout=10)
        self.current = None
        self.rows.append(row)
        return row

    def open_file(self, name: str, data: bytes) -> Callable[[], tuple[int | None, bytes]]:
        return lambda: self.post(f"/api/open?name={name}", data)

    def half_sent(self, close: bool) -> Callable[[], tuple[int | None, bytes]]:
        """A POST /api/open that says 1,000 bytes and sends 10; `close`: hang up then, else wait for the answer."""

        def send() -> tuple[int | None, bytes]:
            with socket.create_connection(("127.0.0.1", self.port), timeout=60) as sock:
                sock.sendall(
                    b"POST /api/open?name=x.puz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n0123456789"
                )
                if close:
                    return None, b""
                response = http.client.HTTPResponse(sock)
                response.begin()
                return response.status, response.read()

        return send

    def websocket(self, message: bytes | str) -> Callable[[], tuple[int | None, str]]:
        """Send `message` as the first message of /ws/fill: the close code and reason the server answers."""

        def send() -> tuple[int | None, str]:
            from websockets.exceptions import ConnectionClosed
            from websockets.sync.client import connect

            with connect(f"ws://127.0.0.1:{self.port}/ws/fill", open_timeout=10, close_timeout=10) as ws:
                ws.send(message)
                try:
                    while True:
                        ws.recv(timeout=10)
                except ConnectionClosed as exc:
                    received = exc.rcvd
                    return (received.code, received.reason) if received else (None, "no close frame")
                except TimeoutError:
                    return None, "no answer in 10 s"

        return send

    def stop(self) -> str:
        """Stop the server; its log (stderr)."""
        self._stop.set()
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for thread in self._threads:
            thread.join(timeout=5)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.log.seek(0)
        text = self.log.read()
        self.log.close()
        return text


def at_once(*sends: Callable[[], tuple[int | None, bytes]]) -> Callable[[], tuple[int | None, bytes]]:
    """Send all `sends` at once: the worst status (the highest) and its answer."""

    def send() -> tuple[int | None, bytes]:
        answers: list[tuple[int | None, bytes]] = []
        threads = [threading.Thread(target=lambda s=s: answers.append(s())) for s in sends]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if len(answers) < len(sends):
            return None, b"a request failed"
        return max(answers, key=lambda answer: answer[0] or 0)

    return send


def attack_all(attack: Attack) -> list[Row]:
    """Every input of the audit against the server, in turn (and two zip bombs at once)."""
    files = {name: make() for name, make in HOSTILE_FILES.items()}
    for name, (file_name, data) in files.items():
        attack.run(name, attack.open_file(file_name, data))
    attack.run(
        "two zip bombs at once",
        at_once(attack.open_file(*files["jpz zip bomb"]), attack.open_file(*files["jpz zip bomb"])),
    )
    attack.run("personal list, a 1 MB word", lambda: attack.post("/api/words/upload?mode=merge", huge_word_list()))
    for typed in ("CAFE\u0301", "\ufb01ne", "d\u0131sk"):  # a word edit that would change another word's score
        attack.run(
            f"word edit {typed.encode('unicode_escape').decode()}",
            functools.partial(attack.post, "/api/words", json.dumps({"word": typed, "score": 0}).encode()),
        )
    attack.run("half-sent body", attack.half_sent(close=False))
    attack.run("disconnect mid-body", attack.half_sent(close=True))
    attack.run("ws binary message", attack.websocket(b"\x00\x01binary"))
    attack.run("ws nested JSON", attack.websocket("[" * 100_000 + "]" * 100_000))
    attack.run("ws wrong types", attack.websocket(json.dumps({"grid": 5, "time_limit_s": "x"})))
    attack.run("ws 5,000-digit number", attack.websocket('{"grid": ["..."], "seed": ' + "9" * 5000 + "}"))
    attack.run(
        "POST 5,000-digit number",
        lambda: attack.post("/api/suggest", b'{"slot": "1A", "k": ' + b"9" * 5000 + b', "grid": ["..."]}'),
    )
    attack.run(
        "Host localhost:1@evil.example", lambda: attack.get("/api/info", headers={"Host": "localhost:1@evil.example"})
    )
    return attack.rows


def table(rows: list[Row]) -> str:
    lines = [
        "| input | status | JSON | s | peak RSS MB | /api/info worst s | answer |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r.name} | {r.status} | {'yes' if r.json_answer else 'no'} | {r.seconds:.2f} | {r.peak_rss_mb:.0f} | "
        f"{r.info_worst_s:.2f} | {r.detail[:90].replace('|', '/')} |"
        for r in rows
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # python3 -m tests.web.hostile TREE [MEMORY_CAP_GB]: the table for the checkout at TREE
    tree = os.path.abspath(sys.argv[1])
    attack = Attack(tree, memory_cap_gb=float(sys.argv[2]) if len(sys.argv) > 2 else 4.0)
    try:
        attack_all(attack)
    finally:
        log = attack.stop()
    print(table(attack.rows))
    print(
        f"\nserver peak RSS (tree) {attack.peak_rss_mb:.0f} MB; /api/info worst {attack.info_worst_s:.2f} s; "
        f"info failures: {attack.info_failures[:5]}; tracebacks in the log: {log.count('Traceback')}"
    )
