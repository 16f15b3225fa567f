"""The `batch` command: fill many grids as Dask tasks, printing each result as it arrives, then a summary."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from xwcp.cli.output import emit


def cmd_batch(args: argparse.Namespace) -> int:
    """Example: xwcp batch models/ --out fills --time-limit 30 --resume"""
    from xwcp.dist import batch
    from xwcp.services.load import LoadOptions

    options = LoadOptions(
        min_score=args.min_score, allow_dupes=args.allow_dupes, language=getattr(args, "language", None)
    )
    plan = batch.plan_batch(
        args.grids,
        out_dir=Path(args.out),
        words_path=args.words,
        options=options,
        backend=args.backend,
        time_limit_s=args.time_limit,
        seed=args.seed,
        quality=args.quality,
        resume=args.resume,
    )
    for name, reason in plan.unreadable.items():
        print(f"xwcp batch: cannot read {name}: {reason}", file=sys.stderr)

    def show(name: str, record: dict[str, Any], path: Path) -> None:
        if args.format == "text":
            print(batch.result_line(name, record), flush=True)

    outcome = batch.run_plan(plan, args.cluster, n_workers=args.workers, on_result=show)
    emit(args.format, batch.summary_dict(plan, outcome), batch.summary_text(plan, outcome))
    return outcome.exit_code
