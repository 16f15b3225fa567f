"""Answers flow one way: the analysis returns typed reports (no JSON dicts for the library to parse back), JSON and
text are made in xwcp/render, and no status is compared as a string anywhere in the package."""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from pathlib import Path

import xwcp.analysis.questions as questions
import xwcp.analysis.reports as reports
from xwcp.library import answers
from xwcp.search import core

ROOT = Path(__file__).resolve().parents[2]

STATUS_WORDS = (
    "consistent",
    "unfillable",
    "fillable",
    "unknown",
    "viable",
    "dead-end",
    "filled",
    "limit",
    "aborted",
    "skipped",
    "search",
    "proof",
    "ac3",
    "recent",
    "kept",
    "across",
)
"""The words the answers' statuses, verdicts, labels and directions print as (their enums' values; "down" also
names one of the designer's relaxations)."""
COMPARED = re.compile(r'(?:==|!=)\s*"(?:{0})"|"(?:{0})"\s*(?:==|!=)'.format("|".join(map(re.escape, STATUS_WORDS))))


def test_no_status_is_compared_as_a_string():
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "xwcp").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if COMPARED.search(line)
    ]
    assert not found, "compare the enum (`is Consistency.CONSISTENT`), not its word:\n" + "\n".join(found)


def test_the_status_grep_finds_a_comparison():
    assert COMPARED.search('if data["status"] == "consistent":')
    assert COMPARED.search("if 'x' and \"dead-end\" != label['verdict']:")
    assert not COMPARED.search("if report.status is Consistency.CONSISTENT:")


def _dicts_in(annotation: object, where: str) -> list[str]:
    """Where `annotation` (a resolved type) holds a dict: itself, its arguments, a report's fields."""
    if typing.get_origin(annotation) is dict or annotation is dict:
        return [where]
    found = [hit for arg in typing.get_args(annotation) for hit in _dicts_in(arg, where)]
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        hints = typing.get_type_hints(annotation)
        found += [
            hit
            for field in dataclasses.fields(annotation)
            for hit in _dicts_in(hints[field.name], f"{where}.{field.name}")
        ]
    return found


def test_the_analysis_questions_answer_with_typed_reports():
    namespace = {**vars(reports), **vars(questions)}
    asked = [
        questions.domains_report,
        questions.heatmap_report,
        questions.check_report,
        questions.suggest_report,
        questions.rank_words,
    ]
    for function in asked:
        returned = eval(inspect.signature(function).return_annotation, namespace)  # the annotation's text
        assert not _dicts_in(returned, function.__name__), f"{function.__name__} answers with a dict"
        for arg in typing.get_args(returned) or (returned,):
            assert getattr(arg, "__module__", "") == reports.__name__, (function.__name__, arg)


def test_the_minimal_core_is_typed_too():
    returned = eval(inspect.signature(core.explain).return_annotation, vars(core))
    assert not _dicts_in(returned, "explain"), "explain answers with a dict"
    assert "core" in {field.name for field in dataclasses.fields(reports.CheckReport)}
    assert _dicts_in(dict[str, int], "a dict") and _dicts_in(reports.CheckReport | None, "x") == []


def test_the_library_answers_read_reports_not_dicts():
    for answer in (answers.CheckAnswer, answers.Suggestions, answers.HeatMap, answers.CoreAnswer):
        parameters = inspect.signature(answer.from_report).parameters.values()
        parsed = [p.name for p in parameters if re.search(r"\b(dict|JsonDict|Mapping|Any)\b", str(p.annotation))]
        assert not parsed, f"{answer.__name__}.from_report parses a dict: {parsed}"
        assert any(str(p.annotation).endswith("Report") for p in parameters), answer.__name__
