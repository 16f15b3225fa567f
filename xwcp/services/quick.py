"""The start-up path of `xwcp fill`: read, compile and fill a grid without importing numpy.

On a small grid the search takes milliseconds and a fill command's time is Python's start
plus imports; numpy alone was about 0.1 s of the 5x5's 0.37 s. This path takes
the same steps as the ordinary one, through the same modules, with numpy-free stand-ins for
the two things that needed it: the word list is the compiled cache read through `mmap`
(`xwcp.words.wordlist.MappedWordList`, verified as `xwcp.words.cache` always does), and the problem has
no numpy domains (`compile_structure`), so the compiled search starts from bitsets
(`xwcp.compile.problem.initial_bitsets`, `xwcp.engine.plain_kernel`). The search, its tuning, the
`auto` race, the fill check and the report are the ordinary ones, so the output is the same.

It applies when one list (or the default) is already cached, the backend is `auto`,
`backtrack` or `letters`, and no option needs more than the search (no `--quality`,
`--min-diff`, `--export-cnf` or `--max-shared-substring`; `--count` and `--out` are fine);
`load_plain_problem` says None otherwise (`load_and_fill`, the `xwcp fill` command's work, then
takes the ordinary path through `xwcp.services.load` and `xwcp.services.run`). An unfillable
grid's reason and core come from the same functions too: the AC-3 kernel has a numpy-free
form (`xwcp.engine.plain_kernel.PlainEngine`), and `xwcp.search.core` and `xwcp.engine.ac3.unfillable_reason` read
bitset domains, and a search proof's hardest slot comes from the search's own failure weights
(`BitSearch.slot_weights`, plain Python over the kernel's arrays).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from xwcp.compile.problem import Problem
from xwcp.engine import kernel
from xwcp.engine.result import FillResult
from xwcp.formats import Puzzle
from xwcp.services import run as runner
from xwcp.services.load import DEFAULT_OPTIONS, LoadOptions, WordPaths, load, load_plain, load_puzzle_problem

if TYPE_CHECKING:
    from xwcp.services.chains import ChainFill  # numpy under it: imported when a grid has chains

BACKENDS = ("auto", "backtrack", "letters")
"""Backends whose search is the compiled one PlainBitSearch runs."""


def load_plain_problem(
    grid_path: str | Path,
    words_path: WordPaths = None,
    options: LoadOptions = DEFAULT_OPTIONS,
    *,
    warn: Callable[[str], None] | None = None,
    out: str | Path | None = None,
) -> tuple[Puzzle, Problem] | None:
    """`xwcp.services.load.load_plain` as (puzzle, problem): the problem compiled without numpy, or None when
    that path does not apply (see `load_plain`)."""
    loaded = load_plain(grid_path, words_path, options, warn=warn, out=out)
    return None if loaded is None else (loaded.puzzle, loaded.problem)


def fill(
    grid_path: str | Path,
    words_path: WordPaths = None,
    options: LoadOptions = DEFAULT_OPTIONS,
    *,
    backend: str = "auto",
    time_limit_s: float | None = None,
    seed: int = 0,
    count: int | None = None,
    show_progress: bool = False,
    warn: Callable[[str], None] | None = None,
    out: str | Path | None = None,
    max_processes: int | None = None,
) -> tuple[Puzzle, Problem, FillResult] | None:
    """Load and fill a grid as `load_puzzle_problem` and `run_fill` do, without numpy.

    Returns:
        (puzzle, problem, result), the problem plain (`xwcp.engine.kernel.is_plain`; what comes after
        a fill, the check, the report and the core of an unfillable grid, takes it too); None
        when this path does not apply (see `load_plain_problem`; nothing was printed then).
    """
    if backend not in BACKENDS:
        return None
    loaded = load_plain_problem(grid_path, words_path, options, warn=warn, out=out)
    if loaded is None:
        return None
    puzzle, problem = loaded

    def run(problem: Problem) -> FillResult:
        return runner.run_fill(
            problem,
            backend=backend,
            time_limit_s=time_limit_s,
            seed=seed,
            count=count,
            show_progress=show_progress,
            max_processes=max_processes,
        )

    try:
        return puzzle, problem, run(problem)
    except kernel.NeedsNumpyProblem:  # a kernel without a plain form: the ordinary problem (warned above)
        problem = load_puzzle_problem(grid_path, words_path, options)[1]
        return puzzle, problem, run(problem)


def load_and_fill(
    grid_path: str | Path,
    words_path: WordPaths = None,
    options: LoadOptions = DEFAULT_OPTIONS,
    *,
    backend: str = "auto",
    time_limit_s: float | None = None,
    seed: int = 0,
    count: int | None = None,
    min_diff: int | None = None,
    quality: bool = False,
    export_cnf: str | Path | None = None,
    show_progress: bool = False,
    warn: Callable[[str], None] | None = None,
    say: Callable[[str], None] | None = None,
    soft_stop: bool = False,
    out: str | Path | None = None,
    max_processes: int | None = None,
) -> tuple[Puzzle, Problem, FillResult]:
    """`load_puzzle_problem` then `run_fill` (the arguments are theirs): the `xwcp fill` command's work.

    A fill that needs only the search runs without numpy when it can (`fill` above: same
    answers, a faster start on small grids).

    Raises:
        InputError: as `load_puzzle_problem`, or `--min-diff` that does not fit the problem.
    """
    if not (quality or min_diff or export_cnf or options.language not in (None, "en")):
        fast = fill(
            grid_path,
            words_path,
            options,
            backend=backend,
            time_limit_s=time_limit_s,
            seed=seed,
            count=count,
            show_progress=show_progress,
            warn=warn,
            out=out,
            max_processes=max_processes,
        )
        if fast is not None:
            return fast
    puzzle, problem, _ = load(grid_path, words_path, options, warn=warn, out=out, as_paths=True)
    if puzzle.grid.has_chains:
        return _fill_chains(
            str(grid_path),
            puzzle,
            problem,
            options,
            backend=backend,
            time_limit_s=time_limit_s,
            seed=seed,
            has_options=bool(quality or min_diff or export_cnf or (count is not None and count != 1)),
            say=say if show_progress else None,
        )
    if min_diff is not None:
        from xwcp.backends.controlled import check_min_diff

        check_min_diff(problem, count or 1, min_diff)  # its count is unused (the CLI asks --count > 1 with it)
    result = runner.run_fill(
        problem,
        backend=backend,
        time_limit_s=time_limit_s,
        seed=seed,
        count=count,
        export_cnf=export_cnf,
        show_progress=show_progress,
        quality=quality,
        min_diff=min_diff,
        say=say,
        soft_stop=soft_stop,
        max_processes=max_processes,
    )
    return puzzle, problem, result


def _fill_chains(
    source: str,
    puzzle: Puzzle,
    problem: Problem,
    options: LoadOptions,
    *,
    backend: str,
    time_limit_s: float | None,
    seed: int,
    has_options: bool,
    say: Callable[[str], None] | None,
) -> tuple[Puzzle, Problem, FillResult]:
    """`load_and_fill` for a grid with chains (`xwcp.services.chains`): the split filled, its problem and result.

    Raises:
        InputError: an option the chain fill does not take (several fills, quality, CNF), or a chain no
            split of the list's lengths fits.
    """
    from xwcp.base.errors import InputError

    if has_options:
        raise InputError(
            "a grid with chains (entries of several words whose boundaries the fill chooses) takes one plain fill: "
            "no --count, --quality, --min-diff or --export-cnf"
        )
    try:
        found = _chain_fill(puzzle, problem, options, backend, time_limit_s, seed, say)
    except InputError as exc:  # a chain no split fits: name the file
        raise InputError(exc.message, exc.source or source, exc.line) from None
    return puzzle, found.problem, found.result


def _chain_fill(
    puzzle: Puzzle,
    problem: Problem,
    options: LoadOptions,
    backend: str,
    time_limit_s: float | None,
    seed: int,
    say: Callable[[str], None] | None,
) -> ChainFill:
    """`xwcp.services.chains.fill_chains` with the load options."""
    from xwcp.services.chains import fill_chains

    return fill_chains(
        puzzle.grid,
        problem.words,
        min_score=options.min_score,
        allow_dupes=options.allow_dupes,
        strict=options.strict,
        controls=options.controls,
        backend=backend,
        time_limit_s=time_limit_s,
        seed=seed,
        say=say,
    )
