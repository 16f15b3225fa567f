"""The JSON objects of the analysis answers (domains, heat map, check, suggest), as the CLI and the web API print them.

Each takes a typed report of `xwcp.analysis.reports` and gives the object `--format json` prints; the keys keep
the order the command line has always printed them in.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any, TypeVar

from xwcp.analysis.reports import (
    CheckReport,
    Consistency,
    DomainsReport,
    ForcedLetter,
    HeatmapReport,
    RankedWord,
    SlotInfo,
    SuggestCounts,
    SuggestedWord,
    SuggestReport,
)
from xwcp.model.alphabet import Alphabet
from xwcp.render.core import core_json
from xwcp.render.report import written_data

JsonDict = dict[str, Any]
"""A JSON object as the CLI prints it."""

R = TypeVar("R")


def slot_json(slot: SlotInfo) -> JsonDict:
    return {"id": slot.name, "pattern": slot.pattern, "size": slot.size}


def forced_json(forced: tuple[ForcedLetter, ...]) -> list[JsonDict]:
    return [{"row": f.row, "col": f.col, "letter": f.letter} for f in forced]


def ranked_json(word: RankedWord) -> JsonDict:
    """A ranked word: word, score and fit."""
    return {"word": word.word, "score": word.score, "fit": word.fit}


def domains_json(report: DomainsReport) -> JsonDict:
    """The `xwcp domains --format json` object."""
    out: JsonDict = {"status": report.status.value}
    if report.status is Consistency.UNFILLABLE:
        out["reason"] = report.reason
    if report.wipeout is not None:
        out["slot"] = report.wipeout.slot
        out["chain"] = list(report.wipeout.chain)
    out["slots"] = [{**slot_json(s.slot), "words": [ranked_json(w) for w in s.words]} for s in report.slots]
    out["cells"] = report.cells
    out["seconds"] = report.seconds
    return out


def heatmap_json(report: HeatmapReport) -> JsonDict:
    """The `xwcp heatmap --format json` object."""
    out: JsonDict = {"status": report.status.value}
    if report.status is Consistency.UNFILLABLE:
        out["reason"] = report.reason
    if report.wipeout_slot is not None:
        out["slot"] = report.wipeout_slot
    if report.dead_cells is not None:
        out["dead_cells"] = [[r, c] for r, c in report.dead_cells]
    if report.core is not None:
        out["core"] = core_json(report.core)
    out["width"], out["height"] = report.width, report.height
    out["n_letters"] = report.n_letters
    out["cells"] = report.counts
    out["letters"] = report.letters
    out["forced"] = forced_json(report.forced)
    out["grid"] = report.grid
    if report.pairs:
        out["pairs"] = [
            {"row": p.row, "col": p.col, "counts": list(p.counts), "letters": list(p.letters)} for p in report.pairs
        ]
    return out


def check_json(report: CheckReport, *, is_verdict_first: bool = True) -> JsonDict:
    """The `xwcp check --format json` object; with `is_verdict_first` False, the verdict sent before the core
    search (the report without its core, the verdict where the check reached it)."""
    out: JsonDict = {}
    if report.ac3 is Consistency.UNFILLABLE:
        out["reason"] = report.reason
    out["ac3"] = report.ac3.value
    out["unlisted"] = [{"id": u.slot, "word": u.word} for u in report.unlisted]
    out["most_constrained"] = None if report.most_constrained is None else slot_json(report.most_constrained)
    out["forced"] = forced_json(report.forced)
    if report.solver is not None:
        out["solver"] = {
            "backend": report.solver.backend,
            "status": report.solver.status,
            "seconds": report.solver.seconds,
        }
    if not is_verdict_first:
        out["verdict"] = report.verdict.value
    if report.fill is not None:
        out["fill"] = report.fill
    if report.proof is not None:
        out["proof"] = report.proof.value
        if report.ac3 is Consistency.CONSISTENT:
            out["reason"] = report.reason
    if report.wipeout_slot is not None:
        out["slot"] = report.wipeout_slot
    out["seconds"] = report.seconds
    if report.core is not None and is_verdict_first:
        out["core"] = core_json(report.core)
    return {"verdict": report.verdict.value, **out} if is_verdict_first else out


def counts_json(counts: SuggestCounts) -> JsonDict:
    """The `counts` of a suggestion list (what each number counts: `xwcp.analysis.questions.SUGGEST_COUNTS`)."""
    out: JsonDict = {"pattern": counts.pattern, "arc_consistent": counts.arc_consistent, "checked": counts.checked}
    if counts.complete is not None:
        out["complete"] = counts.complete
    out["survive"] = counts.survive
    if counts.viable is not None:
        out.update(viable=counts.viable, dead_end=counts.dead_end, unknown=counts.unknown)
    return out


def suggested_json(word: SuggestedWord) -> JsonDict:
    """A suggested word: word, score, fit, and with a label its verdict, how, seconds, proof slots and fill."""
    out: JsonDict = {"word": word.word, "score": word.score, "fit": word.fit}
    if word.pairs:
        out["pairs"] = list(word.pairs)
    label = word.label
    if label is not None:
        out.update(verdict=label.verdict.value, how=label.how.value, seconds=label.seconds)
        if label.proof_slots is not None:
            out["proof_slots"] = list(label.proof_slots)
        if label.fill is not None:
            out["fill"] = label.fill
    return out


def suggest_json(report: SuggestReport) -> JsonDict:
    """The `xwcp suggest --format json` object."""
    out: JsonDict = {"status": report.status.value}
    if report.status is Consistency.UNFILLABLE and not report.is_probe_verdict:
        out["reason"] = report.reason
    out["slot"] = slot_json(report.slot)
    if report.dropped is not None:
        out["dropped"] = [
            {"word": d.word, "score": d.score, "fit": d.fit, "empties": d.empties} for d in report.dropped
        ]
    if report.is_probe_verdict:
        out["reason"] = report.reason
    out["counts"] = counts_json(report.counts)
    out["words"] = [suggested_json(w) for w in report.words]
    return out


def written_report(report: R, alphabet: Alphabet) -> R:
    """`report` (a typed report, or any of its parts) with every string's code chars of `alphabet`'s
    multi-character letters written as it writes them (Dutch "IJ"): `written_data` for typed answers."""
    if not (alphabet.has_multi_letters or alphabet.is_open):
        return report
    return _written(report, alphabet)  # type: ignore[no-any-return]


def _written(value: Any, alphabet: Alphabet) -> Any:
    if isinstance(value, Enum):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value, **{f.name: _written(getattr(value, f.name), alphabet) for f in dataclasses.fields(value) if f.init}
        )
    if isinstance(value, tuple):
        return tuple(_written(item, alphabet) for item in value)
    if isinstance(value, list):
        return [_written(item, alphabet) for item in value]
    return written_data(value, alphabet)
