"""Shared test setup: keep every test away from the user's word-list cache and data folder; a fixture writing input
files; the default word list; the markers `browser` and `cluster` set from the fixtures a test uses, and a check
that a test starting a Python process or a Dask cluster carries `subprocess` or `cluster`."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

# A test run writes bytecode even where PYTHONDONTWRITEBYTECODE is set (some sandboxes and containers): else each
# pytest process (xdist's two workers, the controller) compiles again every test module its assertion rewriting
# reads and every xwcp module it imports, about 6 of the 9 CPU s a worker spends before its first test.
# __pycache__ is ignored by git; the Python processes the tests start still honour the variable.
sys.dont_write_bytecode = False

BROWSER_FIXTURES = {"browser", "chromium"}  # tests/web/conftest.py: a real chromium
CLUSTER_FIXTURES = {"client": "tests.dist.conftest"}  # a Dask LocalCluster (tests/web's `client` is a TestClient)
SUBPROCESS_FIXTURES = {"attacked": "tests.web.test_hostile"}  # module fixtures that start `xwcp serve`
_started: list[str] = []  # what the running test started: Python processes (an audit hook), Dask clusters


def _uses(item: pytest.Item, name: str, module: str | None = None) -> bool:
    if name not in getattr(item, "fixturenames", ()):
        return False
    if module is None:
        return True
    defs = item._fixtureinfo.name2fixturedefs.get(name, ())  # type: ignore[attr-defined]
    return bool(defs) and defs[-1].func.__module__ == module


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark from the fixtures, so `-m "not browser and not cluster"` never runs a test that needs one; leave out
    the `slow` tests unless the -m expression names them (`-m slow`), whatever else it selects."""
    for item in items:
        if any(_uses(item, name) for name in BROWSER_FIXTURES):
            item.add_marker(pytest.mark.browser)
        if any(_uses(item, name, module) for name, module in CLUSTER_FIXTURES.items()):
            item.add_marker(pytest.mark.cluster)
        if any(_uses(item, name, module) for name, module in SUBPROCESS_FIXTURES.items()):
            item.add_marker(pytest.mark.subprocess)
    if "slow" not in (config.option.markexpr or ""):
        slow = [item for item in items if item.get_closest_marker("slow")]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if not item.get_closest_marker("slow")]


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """A Python interpreter started as a child (an xwcp command, a server, a tool such as mypy): the start-up
    and imports cost about a second, so such a test is marked `subprocess`. The engine's own forks (rival
    searches, bounded calls) and the programs it asks (git, dpkg-query, a peer solver) do not count."""
    if (
        event == "subprocess.Popen"
        and args
        and (str(args[0]) == sys.executable or os.path.basename(str(args[0])).startswith("python"))
    ):
        _started.append(f"{sys.executable} {' '.join(map(str, args[1] or ()))[:80]}")


def _watch_clusters() -> None:
    """Once Dask is imported: record every LocalCluster started (a test doing so is marked `cluster`)."""
    local = sys.modules.get("distributed.deploy.local")
    if local is None or getattr(local.LocalCluster.__init__, "_watched", False):
        return
    original = local.LocalCluster.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        _started.append("a Dask LocalCluster")
        original(self, *args, **kwargs)

    init._watched = True  # type: ignore[attr-defined]
    local.LocalCluster.__init__ = init


def pytest_configure(config: pytest.Config) -> None:
    sys.addaudithook(_audit)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    _watch_clusters()
    _started.clear()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Fail a test that started a Python process or a Dask cluster (in its call or its fixtures' set-up) without
    the marker saying so, so that the inner loop's selection by marker stays true."""
    result = yield
    clusters = [what for what in _started if what == "a Dask LocalCluster"]
    if clusters and not item.get_closest_marker("cluster"):
        pytest.fail(f"{item.nodeid} started a Dask cluster but is not marked `cluster`", pytrace=False)
    if len(clusters) < len(_started) and not any(item.get_closest_marker(m) for m in ("subprocess", "browser")):
        started = next(what for what in _started if what != "a Dask LocalCluster")
        pytest.fail(
            f"{item.nodeid} started a Python process ({started}) but is not marked `subprocess` "
            "(@pytest.mark.subprocess)",
            pytrace=False,
        )
    return result


@pytest.fixture(scope="module")
def default_words():
    """The default list, compiled into the session's cache (the quick path reads only a cached list)."""
    from xwcp.words.wordlist import load_word_list

    return load_word_list()


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory):
    """Point XWCP_CACHE_DIR at a folder of this run (subprocesses inherit it), shared by xdist's workers: what the
    run compiles there (the default list, WordNet's index, the list's stem groups: about 4 CPU s in all) is
    compiled once, not once per worker. Every write to the cache is a folder or file renamed into place, so two
    processes writing the same entry at once both succeed.

    Tests that look at the cache itself set their own folder with monkeypatch on top of this.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # base is <the run's folder>/<worker id>
        folder = base.parent / "xwcp-cache"
        folder.mkdir(exist_ok=True)
    else:
        folder = tmp_path_factory.mktemp("xwcp-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XWCP_CACHE_DIR", str(folder))
        mp.setenv("XWCP_DATA_DIR", str(tmp_path_factory.mktemp("xwcp-data-session")))
        yield


@pytest.fixture(scope="session")
def _data_dirs(tmp_path_factory) -> Iterator[Path]:
    """Fresh folders for `_private_data_dir`, numbered under one folder of the session (`tmp_path_factory.mktemp`
    lists the whole base folder each time to number a new one, a millisecond a test once it holds thousands)."""
    base = tmp_path_factory.mktemp("xwcp-data")
    return (base / str(number) for number in itertools.count())


@pytest.fixture(autouse=True)
def _private_data_dir(_data_dirs, monkeypatch):
    """Point XWCP_DATA_DIR (the personal word list's folder) at a fresh folder for every test, so no test
    reads or writes the user's own list (subprocesses inherit it)."""
    folder = next(_data_dirs)
    folder.mkdir()
    monkeypatch.setenv("XWCP_DATA_DIR", str(folder))


@pytest.fixture
def files(tmp_path, monkeypatch):
    """`files(name, text_or_bytes) -> Path`: write a file in tmp_path (text as UTF-8), with a private cache."""
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))

    def write(name: str, content: str | bytes):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    return write
