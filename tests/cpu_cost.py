"""What each test costs in CPU seconds: a pytest plugin writing them, and a report reading them back.

`python3 -m pytest -p tests.cpu_cost ...` (with or without `-n 2`) writes one JSON line per test to
$CPU_COST_DIR/cpu-<pid>.jsonl (default /tmp/xwcp-cpu-cost), one file per pytest process: the CPU seconds (user + sys
of the process and of the children it reaped), the wall seconds and the markers of the test's set-up, call and
tear-down, and each process's collection. The summary follows the run's; `python3 -m tests.cpu_cost [DIR] [--top N]`
prints it again from the files. CPU seconds compare branches where wall seconds cannot (another job's load), except
for a search that runs to its time limit: it gets its whole limit of CPU only on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest

DEFAULT_DIR = Path(tempfile.gettempdir()) / "xwcp-cpu-cost"
DIR_VARIABLE = "CPU_COST_DIR"
TOP_N = 25
SIZE_BOUNDS_S = (0.02, 0.1, 0.3, 1.0)
"""The report counts tests in these bands of CPU seconds: many small tests cost little, a few big ones a lot."""

_out: IO[str] | None = None


def cpu_s() -> float:
    """User + sys seconds of this process and of the children it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _write(record: dict[str, Any]) -> None:
    if _out is not None:
        _out.write(json.dumps(record) + "\n")
        _out.flush()


def _folder() -> Path:
    return Path(os.environ.get(DIR_VARIABLE) or DEFAULT_DIR)


def pytest_configure(config: pytest.Config) -> None:
    global _out
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    if not hasattr(config, "workerinput"):  # the run's own process (xdist's controller or a plain run): start afresh
        for old in folder.glob("cpu-*.jsonl"):
            old.unlink()
    _out = open(folder / f"cpu-{os.getpid()}.jsonl", "w", encoding="utf-8")  # noqa: SIM115 (closed at unconfigure)
    _write({"event": "start", "cpu": cpu_s(), "worker": hasattr(config, "workerinput")})


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    cpu0, wall0 = cpu_s(), time.perf_counter()
    result = yield
    _write({"event": "collection", "cpu": cpu_s() - cpu0, "wall": time.perf_counter() - wall0})
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    cpu0, wall0 = cpu_s(), time.perf_counter()
    result = yield
    marks = sorted({mark.name for mark in item.iter_markers()} - {"parametrize", "skipif", "xfail", "usefixtures"})
    _write({"id": item.nodeid, "cpu": cpu_s() - cpu0, "wall": time.perf_counter() - wall0, "marks": marks})
    return result


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    _write({"event": "end", "cpu": cpu_s()})
    terminalreporter.write_line("")
    for line in report(_folder(), TOP_N):
        terminalreporter.write_line(line)


def pytest_unconfigure(config: pytest.Config) -> None:
    global _out
    if _out is not None:
        if hasattr(config, "workerinput"):
            _write({"event": "end", "cpu": cpu_s()})
        _out.close()
        _out = None


@dataclass
class Cost:
    """One process's file: its tests' CPU and wall seconds and markers by test id, its collection, its whole CPU."""

    cpu_by_test: dict[str, float]
    wall_by_test: dict[str, float]
    marks_by_test: dict[str, list[str]]
    collection_cpu_s: float
    process_cpu_s: float


def read(path: Path) -> Cost:
    cpu_by_test: dict[str, float] = {}
    wall_by_test: dict[str, float] = {}
    marks_by_test: dict[str, list[str]] = {}
    collection, start, end = 0.0, 0.0, 0.0
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        event = record.get("event")
        if event is None:
            cpu_by_test[record["id"]] = record["cpu"]
            wall_by_test[record["id"]] = record["wall"]
            marks_by_test[record["id"]] = record.get("marks", [])
        elif event == "collection":
            collection = record["cpu"]
        elif event == "start":
            start = end = record["cpu"]
        elif event == "end":
            end = record["cpu"]
    return Cost(cpu_by_test, wall_by_test, marks_by_test, collection, end - start)


def _file_of(test_id: str) -> str:
    return test_id.split("::", 1)[0]


def report(folder: Path, top_n: int = TOP_N) -> list[str]:
    """The summary: processes, totals, tests by band of cost, the costliest files and tests."""
    costs = [read(path) for path in sorted(folder.glob("cpu-*.jsonl"))]
    cpu_by_test: dict[str, float] = {}
    wall_by_test: dict[str, float] = {}
    marks_by_test: dict[str, list[str]] = {}
    for cost in costs:
        cpu_by_test.update(cost.cpu_by_test)
        wall_by_test.update(cost.wall_by_test)
        marks_by_test.update(cost.marks_by_test)
    if not cpu_by_test:
        return [f"cpu cost: no tests recorded in {folder}"]
    lines = [f"cpu cost ({folder}): {len(cpu_by_test)} tests, {sum(cpu_by_test.values()):.1f} CPU s in tests"]
    for cost in costs:
        lines.append(
            f"  process: {len(cost.cpu_by_test)} tests {sum(cost.cpu_by_test.values()):.1f} s, "
            f"collection {cost.collection_cpu_s:.1f} s, whole process {cost.process_cpu_s:.1f} s"
        )
    low = 0.0
    for high in (*SIZE_BOUNDS_S, float("inf")):
        band = [cpu for cpu in cpu_by_test.values() if low <= cpu < high]
        lines.append(f"  tests of {low:g}-{high:g} s: {len(band)}, {sum(band):.1f} s")
        low = high
    tests_by_mark: dict[str, list[str]] = defaultdict(list)
    for test_id, marks in marks_by_test.items():
        for mark in marks:
            tests_by_mark[mark].append(test_id)
    for mark, test_ids in sorted(tests_by_mark.items()):
        lines.append(f"  marked {mark}: {len(test_ids)} tests, {sum(cpu_by_test[t] for t in test_ids):.1f} s")
    cpu_by_file: dict[str, float] = defaultdict(float)
    for test_id, cpu in cpu_by_test.items():
        cpu_by_file[_file_of(test_id)] += cpu
    lines.append("  costliest files (CPU s):")
    lines += [f"    {cpu:7.2f}  {name}" for name, cpu in _top(cpu_by_file.items(), top_n)]
    lines.append("  costliest tests (CPU s, wall s):")
    lines += [f"    {cpu:7.2f} {wall_by_test[name]:7.2f}  {name}" for name, cpu in _top(cpu_by_test.items(), top_n)]
    return lines


def _top(pairs: Iterable[tuple[str, float]], n: int) -> list[tuple[str, float]]:
    return sorted(pairs, key=lambda pair: -pair[1])[:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.cpu_cost", description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(_folder()), help="the run's files (default $CPU_COST_DIR)")
    parser.add_argument("--top", type=int, default=TOP_N, help="how many files and tests to list")
    args = parser.parse_args(argv)
    print("\n".join(report(Path(args.folder), args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
