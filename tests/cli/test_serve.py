"""The `serve` command (`xwcp.cli.serve`): the options handed to the web builder's server, the URL printed first,
and a missing [web] extra said in one line with exit 2 (the server itself is tested in tests/web/test_serve.py)."""

from __future__ import annotations

import sys

import pytest

from tests.helpers import one_line, run
from xwcp.engine.result import default_threads


def test_the_options_reach_the_server_and_the_url_is_printed(capsys, monkeypatch):
    pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")
    heard = {}

    def serve(**options):
        heard.update(options)
        options["announce"]("http://127.0.0.1:8123/")

    monkeypatch.setattr("xwcp.web.serve.serve", serve)
    code, out, err = run(
        [
            "serve",
            "--port",
            "8123",
            "--words",
            "a.txt",
            "--workers",
            "3",
            "--allow-host",
            "builder.test",
            "--no-personal",
            "--cache-mb",
            "300",
        ],
        capsys,
    )
    assert code == 0, err
    assert out == "xwcp builder: http://127.0.0.1:8123/\n"
    assert heard["host"] == "127.0.0.1" and heard["port"] == 8123 and heard["words"] == ["a.txt"]
    assert heard["workers"] == 3 and heard["max_fills"] == default_threads()  # --max-fills not given: the cores
    assert {"builder.test", "127.0.0.1", "localhost"} <= heard["hosts"] and heard["personal"] is False
    assert heard["cache_mb"] == 300


def test_defaults_are_the_cores_and_the_personal_list(capsys, monkeypatch):
    pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")
    heard = {}
    monkeypatch.setattr("xwcp.web.serve.serve", lambda **options: heard.update(options))
    assert run(["serve", "--max-fills", "2"], capsys)[0] == 0
    assert heard["port"] == 8000 and heard["workers"] == default_threads() and heard["max_fills"] == 2
    assert heard["personal"] is True and heard["words"] is None and heard["cache_mb"] == 512


def test_missing_web_extra_is_one_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # `import uvicorn` raises ImportError naming it
    code, out, err = run(["serve"], capsys)
    assert code == 2 and out == ""
    line = one_line(err)
    assert "uvicorn is missing" in line and "pip install 'xwcp[web]'" in line
