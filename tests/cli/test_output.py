"""What a command prints besides its work (`xwcp.cli.output`): warnings on stderr and listed in JSON answers,
progress messages on stderr, the answer as JSON or text on stdout, quiet printing to a reader that went away."""

from __future__ import annotations

import json

import pytest

from xwcp.cli import output


@pytest.fixture(autouse=True)
def _no_warnings_before_or_after():
    output.clear_warnings()
    yield
    output.clear_warnings()


def test_warning_goes_to_stderr_and_into_the_json_answer(capsys):
    output.warn("w.txt: 2 malformed lines")
    output.warn("second")
    data = {"status": "filled"}
    output.emit("json", data, "not printed")
    out, err = capsys.readouterr()
    assert err == "xwcp: warning: w.txt: 2 malformed lines\nxwcp: warning: second\n"
    assert json.loads(out) == {"status": "filled", "warnings": ["w.txt: 2 malformed lines", "second"]}
    assert out.count("\n") == 1  # one JSON line
    assert data == {"status": "filled"}  # the caller's dict is left as it was


def test_json_without_warnings_has_no_warnings_key(capsys):
    output.emit("json", {"status": "filled"}, "text")
    assert json.loads(capsys.readouterr().out) == {"status": "filled"}


def test_text_answer_is_the_text_alone(capsys):
    output.warn("careful")
    output.emit("text", {"status": "filled"}, "C A B")
    out, err = capsys.readouterr()
    assert out == "C A B\n" and "careful" in err and "careful" not in out


def test_clear_warnings_forgets_the_last_commands_warnings(capsys):
    output.warn("from the last command")
    output.clear_warnings()
    output.emit("json", {"n": 1}, "")
    assert "warnings" not in json.loads(capsys.readouterr().out)


def test_say_is_a_message_on_stderr(capsys):
    output.say("compiling")
    assert capsys.readouterr() == ("", "xwcp: compiling\n")


def test_print_quietly_prints_and_says_nothing_when_stdout_is_gone(capsys, monkeypatch):
    output.print_quietly("still here")
    assert capsys.readouterr().out == "still here\n"

    class Gone:
        def write(self, text):
            raise BrokenPipeError

        def flush(self):
            raise BrokenPipeError

    monkeypatch.setattr("sys.stdout", Gone())
    output.print_quietly("nobody reads this")  # no exception
