"""The library's jobs, one call each: fill, check, domains, suggest, heatmap, find_core, design; a Session for one grid.

Every function takes the grid as a path, grid text, a list of rows, a `Grid` or a `Puzzle`,
the word list (`words=None` is the embedded default list), the minimum score and the
constructor's controls (`locks`, `bans`, `min_score_by_slot`, `region`, `max_shared_substring`, `filters_by_slot`,
`distinct_stems`, `no_crossing`, `tags_by_word`),
checks them once, compiles the problem and answers with a typed object from
`xwcp.library.answers`. A `Session` compiles once and answers the same questions as methods,
for a caller who asks several of one grid. `design` starts from theme entries instead of a grid
and answers with designed grids (`xwcp.designer` does the work).
"""

from __future__ import annotations

import sys
import threading
import time
import warnings
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING

from xwcp.base.errors import InputError, option_text
from xwcp.base.types import Direction
from xwcp.compile.controls import (
    BansLike,
    Controls,
    CrossingsLike,
    FiltersLike,
    LocksLike,
    RegionLike,
    SlotMinsLike,
    TagsLike,
)
from xwcp.engine.result import Progress
from xwcp.library.answers import (
    CheckAnswer,
    CoreAnswer,
    DesignAnswer,
    DomainsAnswer,
    FillAnswer,
    HeatMap,
    SlotInfo,
    Suggestions,
    WordLabel,
)
from xwcp.model.alphabet import ENGLISH
from xwcp.services.inputs import (
    MAX_SEED,
    AtLike,
    GridLike,
    LanguageLike,
    SizeLike,
    SlotLike,
    ThemesLike,
    WordsLike,
    check_backend,
    check_bool,
    check_choice,
    check_int,
    check_number,
    check_optional_int,
    check_seconds,
    list_alphabet,
    read_at,
    read_language,
    read_size,
    read_theme_words,
    read_words,
    resolve_slot,
    type_name,
)

if TYPE_CHECKING:
    from xwcp.analysis.verify import VerifyProgress
    from xwcp.compile.problem import Problem
    from xwcp.designer.rules import Style, Symmetry
    from xwcp.designer.search import DesignEvent
    from xwcp.engine.ac3 import Propagation
    from xwcp.formats import Puzzle
    from xwcp.model import Grid
    from xwcp.services.load import LoadOptions
    from xwcp.words.wordlist import WordList

RANKINGS = ("score", "fit")
"""How live words are ranked: by score (crossing fit breaking ties) or by crossing fit first."""


def _warn(message: str) -> None:
    """The library's default `warn`: a UserWarning pointing at the caller's line (the first frame outside xwcp)."""
    warnings.warn(f"xwcp: {message}", UserWarning, stacklevel=_caller_level())


def _caller_level() -> int:
    """The `stacklevel` of `warnings.warn` called in `_warn` that names the first frame outside the xwcp package."""
    frame: FrameType | None = sys._getframe(2)  # _warn's caller
    level = 2
    while frame is not None and _in_xwcp(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
        level += 1
    return level


def _in_xwcp(module: str) -> bool:
    return module == "xwcp" or module.startswith("xwcp.")


class Session:
    """One grid and word list compiled once, answering every job as a method.

    Example:
        >>> session = xwcp.Session("models/15x15-daily-01.txt", locks={"1A": "ache"})
        >>> session.domains()["1D"][:3]      # doctest: +SKIP
        >>> session.fill(time_limit_s=10).rows  # doctest: +SKIP
    """

    def __init__(
        self,
        grid: GridLike | Problem,
        words: WordsLike = None,
        *,
        min_score: int = 50,
        locks: LocksLike = None,
        bans: BansLike = None,
        min_score_by_slot: SlotMinsLike = None,
        region: RegionLike = None,
        max_shared_substring: int | None = None,
        filters_by_slot: FiltersLike = None,
        distinct_stems: bool | None = None,
        no_crossing: CrossingsLike = None,
        tags_by_word: TagsLike = None,
        controls: Controls | None = None,
        allow_dupes: bool = False,
        strict: bool = False,
        warn: Callable[[str], None] | None = _warn,
        language: LanguageLike = None,
    ) -> None:
        """Read the grid and the list, check the options and compile the problem.

        Args:
            grid: a path (.txt, .puz, .ipuz, .xd, .jpz, .json by extension), grid text (one row per line:
                `#` block, `.` empty, letters pre-filled), a list of rows, a Grid or a Puzzle; or a
                compiled Problem (then give no other option: it has its own).
            words: None for the embedded default list; a `WORD;score` file; a WordList; a dict
                {word: score}; a list of words or (word, score) pairs; or a list of files layered
                in order (later scores override, a score of 0 or below removes a word).
            min_score: words scored below this are never used.
            locks: theme entries, {slot: word} (slot names in any case, or slot ids).
            bans: words no slot may take: one word or a set of words.
            min_score_by_slot: {slot: score}: a slot's own minimum score.
            region: (row1, col1, row2, col2), from 1, inclusive (or "R1,C1:R2,C2"): fill only there.
            max_shared_substring: no two entries share a substring longer than this.
            filters_by_slot: {slot: filter or filters}: `"~.*ING"` (the whole entry matches), `"+ING"` (contains),
                `"-ER"` (lacks), `"!WORD"` (not here), or an `xwcp.SlotFilter` (ONLY_FROM: only some words).
            distinct_stems: True: no two entries of one stem, none a compound of another (RUNS, RUNNER).
            no_crossing: `"name:name"`: no entry tagged name crosses another (tags: name, abbr, foreign, obscure).
            tags_by_word: {word: tag or tags}: the tags `no_crossing` reads (beside `obscure`: scored below 50).
            controls: all the controls above as one `xwcp.Controls` (instead of them).
            allow_dupes: allow a word in more than one slot.
            strict: refuse a grid whose completed entries are not all listed (it is then unfillable).
            warn: called with one line per thing to know (what reading the puzzle file said, skipped
                list lines, entries not in the list); default: Python's `warnings.warn`; None to stay silent.
            language: the puzzle's language: a pack's code (`"es"`, see `xwcp.languages()`), a pack's .json
                file or an Alphabet; None: the one the grid file names (or a loaded WordList's), else English.
                The grid and `words` are read in its letters; the default list (English) is refused for another.

        Raises:
            TypeError: an argument of the wrong type (the message names it and what it takes).
            InputError: an unreadable grid or list, or a control that does not fit the grid.
        """
        from xwcp.compile.problem import Problem

        self._puzzle: Puzzle | None = None
        self._propagation: Propagation | None = None  # set by `analysed`: jobs start from it, not from AC-3
        if isinstance(grid, Problem):
            given = [
                name
                for name, value in (
                    ("words", words),
                    ("locks", locks),
                    ("bans", bans),
                    ("min_score_by_slot", min_score_by_slot),
                    ("region", region),
                    ("max_shared_substring", max_shared_substring),
                    ("filters_by_slot", filters_by_slot),
                    ("distinct_stems", distinct_stems),
                    ("no_crossing", no_crossing),
                    ("tags_by_word", tags_by_word),
                    ("controls", controls),
                    ("allow_dupes", allow_dupes or None),
                    ("strict", strict or None),
                    ("language", language),
                )
                if value is not None
            ]
            if given or min_score != 50:
                raise TypeError(
                    f"a compiled Problem carries its own list and controls; do not give "
                    f"{', '.join(given) or 'min_score'} with it"
                )
            self.problem: Problem = grid
            return
        self._load(
            grid,
            words,
            load_options(
                min_score=min_score,
                locks=locks,
                bans=bans,
                min_score_by_slot=min_score_by_slot,
                region=region,
                max_shared_substring=max_shared_substring,
                filters_by_slot=filters_by_slot,
                distinct_stems=distinct_stems,
                no_crossing=no_crossing,
                tags_by_word=tags_by_word,
                controls=controls,
                allow_dupes=allow_dupes,
                strict=strict,
                language=language,
            ),
            warn,
        )

    def _load(self, grid: GridLike, words: WordsLike, options: LoadOptions, warn: Callable[[str], None] | None) -> None:
        from xwcp.services.load import load

        self._puzzle, self.problem, _ = load(grid, words, options, warn=warn)

    @classmethod
    def _loaded(cls, grid: GridLike, words: WordsLike, options: LoadOptions) -> Session:
        """A session over `grid` and `words` read and compiled with `options` (checked by `load_options`); a
        compiled Problem as `grid` carries its own list and controls (none may be given with it)."""
        from xwcp.compile.problem import Problem

        if isinstance(grid, Problem):
            controls = None if options.controls is None or options.controls == Controls() else options.controls
            return cls(
                grid,
                words,
                min_score=options.min_score,
                controls=controls,
                allow_dupes=options.allow_dupes,
                strict=options.strict,
                language=options.language,
            )
        session = cls.__new__(cls)
        session._puzzle, session._propagation = None, None
        session._load(grid, words, options, _warn)
        return session

    @classmethod
    def analysed(cls, problem: Problem, propagation: Propagation) -> Session:
        """A session over a problem already compiled and propagated (`xwcp.engine.ac3.propagate(problem)`): its jobs
        start from that state instead of running AC-3 again (the web server keeps both per grid)."""
        session = cls(problem)
        session._propagation = propagation
        return session

    @property
    def grid(self) -> Grid:
        """The grid as compiled (locked entries written in)."""
        return self.problem.grid

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle read (its title, author and clues, when the file had them)."""
        if self._puzzle is None:
            from xwcp.formats import Puzzle

            self._puzzle = Puzzle(self.problem.grid, alphabet=self.problem.alphabet)
        return self._puzzle

    @property
    def words(self) -> WordList:
        """The word list."""
        return self.problem.words

    @property
    def slots(self) -> list[SlotInfo]:
        """Every slot, across then down, with its pattern and (before arc consistency) its word count."""
        fixed = self.problem.fixed_text_by_slot
        return [
            SlotInfo(s.name, self.problem.pattern(s.id), 1 if s.id in fixed else _count(self.problem, s.id))
            for s in sorted(self.problem.slots, key=lambda s: (s.direction is not Direction.ACROSS, s.number))
        ]

    def __repr__(self) -> str:
        g = self.problem.grid
        return f"<xwcp.Session {g.width}x{g.height}, {len(self.problem.slots)} slots>"

    # ----- jobs ------------------------------------------------------------------------------

    def fill(
        self,
        *,
        backend: str = "auto",
        time_limit_s: float | None = None,
        seed: int = 0,
        count: int | None = None,
        min_diff: int | None = None,
        quality: bool = False,
        progress: Callable[[Progress], None] | None = None,
        say: Callable[[str], None] | None = None,
        abort: threading.Event | None = None,
        max_processes: int | None = None,
    ) -> FillAnswer:
        """Fill every slot with listed words (no word twice), or prove that no fill exists.

        Args:
            backend: "auto" (the fastest), "backtrack", "letters", "cpsat" or "sat".
            time_limit_s: give up after this many seconds (None: no limit; 60 with `quality`).
            seed: random seed, 0 to 2**31 - 1.
            count: how many different fills (None: one; 0: count every fill, small grids).
            min_diff: with `count`, every two fills differ in at least this many entries.
            quality: search for the highest minimum score, then the highest mean (anytime).
            progress: called with a Progress snapshot of a long plain fill's search.
            say: called with the quality search's progress lines.
            abort: a `threading.Event`; set it (from another thread) to stop the fill: the answer's status is
                then ABORTED (a quality search keeps the best fill found until then).
            max_processes: the most search processes at once ("auto" races a portfolio, one per core);
                None: the cores this process may use, capped by XWCP_MAX_PROCESSES; 1: one search.

        Returns:
            A FillAnswer: `.status`, `.rows`, `answer["18A"]`, `.quality`, `.fills`; for an
            unfillable grid `.reason` and `.core`. Every fill has been checked against the rules.

        Raises:
            TypeError, InputError: an option of the wrong type or value.
        """
        from xwcp.base.types import FillStatus
        from xwcp.services import run as runner

        backend = check_backend(backend)
        time_limit_s = check_seconds("time_limit_s", time_limit_s)
        seed = check_int("seed", seed, 0, MAX_SEED)
        count = check_optional_int("count", count, 0)
        min_diff = check_optional_int("min_diff", min_diff, 1)
        quality = check_bool("quality", quality)
        max_processes = check_optional_int("max_processes", max_processes, 1)
        if min_diff is not None:
            if not count or count < 2:
                raise InputError(f"{option_text('min_diff', min_diff)} needs {option_text('count')} of 2 or more")
            from xwcp.backends.controlled import check_min_diff

            check_min_diff(self.problem, count, min_diff)
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be a callable taking an xwcp.Progress, not {type_name(progress)}")
        if abort is not None and not isinstance(abort, threading.Event):
            raise TypeError(f"abort must be a threading.Event (or None), not {type_name(abort)}")
        start = time.perf_counter()
        problem = self.problem
        if problem.grid.has_chains:  # chains: their splits are filled (`xwcp.services.chains`); the answer names parts
            from xwcp.services.chains import fill_chains_of

            if quality or min_diff is not None or (count is not None and count != 1):
                raise InputError("a grid with chains takes one plain fill: no count, quality or min_diff")
            found = fill_chains_of(
                problem,
                backend=backend,
                time_limit_s=time_limit_s,
                seed=seed,
                say=say,
                abort=abort,
            )
            problem, result = found.problem, found.result
        else:
            result = runner.run_fill(
                problem,
                backend=backend,
                time_limit_s=time_limit_s,
                seed=seed,
                count=count,
                quality=quality,
                min_diff=min_diff,
                say=say,
                progress=progress,
                abort=abort,
                max_processes=max_processes,
            )
        core = None
        if result.status is FillStatus.UNFILLABLE:
            from xwcp.search.core import explain

            core = explain(problem, seed_slot_id=result.slot_id, weight_by_slot=result.weight_by_slot, abort=abort)
        return FillAnswer.build(problem, result, time.perf_counter() - start, count, core, self.puzzle)

    def check(self, *, backend: str = "auto", time_limit_s: float | None = 10.0, seed: int = 0) -> CheckAnswer:
        """Can the grid be filled? Arc consistency first, then a solver within `time_limit_s`.

        Returns:
            A CheckAnswer: `.verdict` (Verdict.FILLABLE / UNFILLABLE / UNKNOWN), `.reason` (the
            sentence that explains it), `.core` (slot names, when unfillable), `.fill`,
            `.most_constrained`, `.forced`, `.unlisted`.
        """
        from xwcp.analysis.questions import check_report

        backend = check_backend(backend)
        time_limit_s = check_seconds("time_limit_s", time_limit_s)
        seed = check_int("seed", seed, 0, MAX_SEED)
        return CheckAnswer.from_report(
            self.problem,
            check_report(self.problem, backend=backend, prop=self._propagation, time_limit_s=time_limit_s, seed=seed),
        )

    def domains(self, slot: SlotLike | None = None, *, k: int | None = None, by: str = "score") -> DomainsAnswer:
        """The live words of every slot (or of `slot`): those that keep the grid arc-consistent.

        Args:
            slot: only this slot (a name such as "6D", or an id); None for every slot.
            k: at most this many words per slot (None: all).
            by: "score" (best score first, crossing fit breaking ties) or "fit" (crossing fit first).

        Returns:
            A DomainsAnswer: `answer["6D"]` is a list of (word, score) pairs, best first;
            `answer.size("6D")` counts them all; `answer.slots` has every slot's pattern and size.
        """
        from xwcp.engine.ac3 import propagate

        k = check_optional_int("k", k, 1)
        by = check_choice("by", by, RANKINGS)
        problem = self.problem
        if slot is not None:
            slot_ids = [resolve_slot(problem, slot).id]
        else:
            slot_ids = [
                s.id for s in sorted(problem.slots, key=lambda s: (s.direction is not Direction.ACROSS, s.number))
            ]
        name = problem.slots[slot_ids[0]].name if slot is not None else None
        return DomainsAnswer(problem, self._propagation or propagate(problem), slot_ids, k, by, name)

    def suggest(
        self,
        slot: SlotLike,
        *,
        k: int = 10,
        by: str = "score",
        verify: bool = False,
        backend: str = "auto",
        time_limit_s: float | None = 5.0,
        seed: int = 0,
        show_fill: bool = False,
        progress: Callable[[VerifyProgress], None] | None = None,
        count: bool = True,
        probe_max_words: int | None = 1000,
        probe_time_limit_s: float | None = None,
        abort: threading.Event | None = None,
        max_processes: int | None = None,
    ) -> Suggestions:
        """Ranked words for one slot that survive being entered; with `verify`, each labelled viable / dead end.

        No word is suggested that empties a slot when entered (singleton consistency, checked in rank
        order until `k` words survive; with `count` the rest are checked too, to count them, at most
        `probe_max_words` in all; `.counts` says how many were checked and how).

        Args:
            slot: the slot, e.g. "6D" (or its id).
            k: how many words.
            by: "score" or "fit" (as `domains`).
            verify: label every word: VIABLE (a full fill with it exists at the current floor),
                DEAD_END (proven none does) or UNKNOWN (not settled within `time_limit_s`).
            time_limit_s: the budget for all the labels together.
            show_fill: with `verify`, keep the fill that proves each viable word (`.fill`).
            progress: with `verify`, called with a VerifyProgress as words settle.
            count: check every word of the slot (within the budget) to count the survivors, not only
                until `k` survive.
            probe_max_words: the most words checked (None: all; 1000 is analysis.questions.PROBE_MAX_WORDS).
            probe_time_limit_s: a time budget for those checks too (None: none); unlike the cap in words
                it makes the counts depend on the machine's speed (the web builder's first answer uses it).
            abort: with `verify`, a threading.Event; once set, the words not yet settled stay unknown (the
                web builder's newer search of the same client).
            max_processes: with `verify`, the most processes labelling at once (None: the cores this process
                may use, capped by XWCP_MAX_PROCESSES; 1: this one only).

        Returns:
            Suggestions: a list of Suggestion (`.word`, `.score`, `.fit`, `.verdict`), best first (with
            `verify`, viable first and dead ends last); `.slot` has the slot's pattern and how many
            words fit; `.counts` what was counted (SuggestionCounts); `.dropped` the higher-ranked
            words that empty a slot.
        """
        from xwcp.analysis.questions import suggest_report

        found = resolve_slot(self.problem, slot)
        k = check_int("k", k, 1)
        by = check_choice("by", by, RANKINGS)
        verify = check_bool("verify", verify)
        show_fill = check_bool("show_fill", show_fill)
        backend = check_backend(backend)
        time_limit_s = check_seconds("time_limit_s", time_limit_s)
        seed = check_int("seed", seed, 0, MAX_SEED)
        count = check_bool("count", count)
        if probe_max_words is not None:
            probe_max_words = check_int("probe_max_words", probe_max_words, 1)
        probe_time_limit_s = check_seconds("probe_time_limit_s", probe_time_limit_s)
        max_processes = check_optional_int("max_processes", max_processes, 1)
        if show_fill and not verify:
            raise InputError("show_fill=True needs verify=True")
        from xwcp.render.questions_json import written_report

        report = suggest_report(
            self.problem,
            found.name,
            k=k,
            verify=verify,
            backend=backend,
            time_limit_s=time_limit_s,
            seed=seed,
            show_fill=show_fill,
            progress=progress,
            by=by,
            prop=self._propagation,
            count=count,
            probe_max_words=probe_max_words,
            probe_time_limit_s=probe_time_limit_s,
            abort=abort,
            max_processes=max_processes,
        )
        alphabet = self.problem.alphabet
        return Suggestions.from_report(written_report(report, alphabet), alphabet)  # IJ, not its code char

    def label(
        self,
        slot: SlotLike,
        words: list[str],
        *,
        time_limit_s: float | None = 5.0,
        seed: int = 0,
        on_label: Callable[[WordLabel], None] | None = None,
        abort: threading.Event | None = None,
        max_processes: int | None = None,
    ) -> list[WordLabel]:
        """Label `words` (e.g. a `suggest` list's) for `slot` by the solver: viable, dead end or unknown.

        The words are settled together under the one budget `time_limit_s` (as `suggest(verify=True)`),
        and a fill found lately for this grid's layout that still holds labels a word at once.
        `on_label` gets each WordLabel the moment it is settled (the web builder streams them);
        `abort` (a threading.Event) stops the labelling: the words not settled stay UNKNOWN.
        `max_processes` caps the processes labelling at once (None: the cores this process may use, capped by
        XWCP_MAX_PROCESSES).

        Returns:
            One WordLabel per word, in the order given.
        """
        from xwcp.analysis.verify import WordVerdict, verify_words

        found = resolve_slot(self.problem, slot)
        time_limit_s = check_seconds("time_limit_s", time_limit_s)
        seed = check_int("seed", seed, 0, MAX_SEED)
        max_processes = check_optional_int("max_processes", max_processes, 1)
        if abort is not None and not isinstance(abort, threading.Event):
            raise TypeError(f"abort must be a threading.Event (or None), not {type_name(abort)}")
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise InputError("words must be a list of words")
        alphabet = self.problem.alphabet
        words = [w.strip().upper() if alphabet.is_ascii else alphabet.fold_word(w) or w.strip().upper() for w in words]
        for word in words:
            if len(word) != found.length or self.problem.words.word_id(word) is None:
                raise InputError(f"{word!r} is not a listed word of {found.length} letters for {found.name}")

        def settled(v: WordVerdict) -> None:
            if on_label is not None:
                on_label(WordLabel.of(v, self.problem))

        verdicts = verify_words(
            self.problem,
            found.id,
            words,
            time_limit_s=time_limit_s,
            seed=seed,
            abort=abort,
            on_settle=settled,
            max_processes=max_processes,
        )
        return [WordLabel.of(v, self.problem) for v in verdicts]

    def heatmap(self, *, core: bool = True) -> HeatMap:
        """How many letters each cell can still take: all of the alphabet free (26 in English), 1 forced, 0 dead.

        Args:
            core: on an unfillable grid, also find the core (the slots that cannot be filled together).

        Returns:
            A HeatMap: `.counts` (rows of numbers, None for blocks), `.forced`, `.save_png(path)`.
        """
        from xwcp.analysis.questions import heatmap_report
        from xwcp.render.questions_json import written_report

        report = heatmap_report(self.problem, with_core=check_bool("core", core), prop=self._propagation)
        return HeatMap.from_report(self.problem, written_report(report, self.problem.alphabet))

    def find_core(
        self, *, backend: str = "backtrack", time_limit_s: float | None = 5.0, seed: int = 0
    ) -> CoreAnswer | None:
        """Why the grid cannot be filled: a minimal set of slots that cannot all be filled together.

        Args:
            backend: the solver deciding each step: "backtrack" (fastest), "cpsat" or "sat".
            time_limit_s: budget; when it runs out the core found so far is returned (`is_minimal` False).

        Returns:
            A CoreAnswer (`.slots`: names such as ("7A", "4D"), `.message`, `.cells`, `.is_minimal`),
            or None when the grid is fillable (or could not be decided in the time).
        """
        from xwcp.engine.plain_kernel import engine_for
        from xwcp.search.core import core_report, find_core

        backend = check_backend(backend)
        time_limit_s = check_seconds("time_limit_s", time_limit_s)
        seed = check_int("seed", seed, 0, MAX_SEED)
        problem = self.problem
        seeds: list[int] = []
        if not problem.conflicts:
            engine = engine_for(problem)  # AC-3, for the slot it empties: the core grows from there
            if not engine.propagate_all() and engine.wipeout_slot_id is not None:
                seeds = [engine.wipeout_slot_id]
        core = find_core(problem, backend=backend, time_limit_s=time_limit_s, seed_slot_ids=seeds, seed=seed)
        return None if core is None else CoreAnswer.from_report(core_report(problem, core))

    def with_entry(self, slot: SlotLike, word: str) -> Session:
        """A new Session on the same list and controls with `word` entered in `slot`."""
        from xwcp.compile.problem import with_word
        from xwcp.words.wordlist import normalise_word

        found = resolve_slot(self.problem, slot)
        if not isinstance(word, str):
            raise TypeError(f"word must be a str, not {type_name(word)}")
        alphabet = self.problem.alphabet
        text = normalise_word(word.strip(), alphabet)
        if not text or len(text) != found.length:
            letters = "letters A-Z" if alphabet.is_ascii else f"{alphabet.name} letters"
            raise InputError(f"word={word!r}: {found.name} takes a word of {found.length} {letters}")
        pattern = self.problem.pattern(found.id)
        clash = next((i for i, (p, t) in enumerate(zip(pattern, text)) if p != "." and p != t), None)
        if clash is not None:
            raise InputError(
                f"word={word!r}: letter {clash + 1} ({text[clash]}) clashes with the grid's "
                f"{pattern[clash]} in {found.name} ({pattern})"
            )
        session = Session(with_word(self.problem, found.id, text))
        session._puzzle = None if self._puzzle is None else _replace_grid(self._puzzle, session.problem.grid)
        return session


def load_options(
    *,
    min_score: int = 50,
    locks: LocksLike = None,
    bans: BansLike = None,
    min_score_by_slot: SlotMinsLike = None,
    region: RegionLike = None,
    max_shared_substring: int | None = None,
    filters_by_slot: FiltersLike = None,
    distinct_stems: bool | None = None,
    no_crossing: CrossingsLike = None,
    tags_by_word: TagsLike = None,
    controls: Controls | None = None,
    allow_dupes: bool = False,
    strict: bool = False,
    language: LanguageLike = None,
) -> LoadOptions:
    """The grid options of `Session` and every one-call job, checked and gathered into one `LoadOptions`.

    Raises:
        TypeError: an option of the wrong type, or the controls given both as `controls` and one by one.
        InputError: a control that cannot be read (the grid is not known yet: `load` checks it fits).
    """
    from xwcp.services.load import LoadOptions

    min_score = check_int("min_score", min_score)
    check_bool("allow_dupes", allow_dupes)
    check_bool("strict", strict)
    if controls is not None:
        if not isinstance(controls, Controls):
            raise TypeError(f"controls must be xwcp.Controls (or None), not {type_name(controls)}")
        singles = (locks, bans, min_score_by_slot, region, max_shared_substring, filters_by_slot, distinct_stems)
        if any(v is not None for v in (*singles, no_crossing, tags_by_word)):
            raise TypeError(
                "give the controls either as controls=Controls(...) or as locks=, bans=, "
                "min_score_by_slot=, region=, max_shared_substring=, filters_by_slot=, distinct_stems=, "
                "no_crossing=, tags_by_word=; not both"
            )
    else:
        controls = Controls(
            locks=locks,
            bans=bans,
            min_score_by_slot=min_score_by_slot,
            region=region,
            max_shared_substring=max_shared_substring,
            filters_by_slot=filters_by_slot,
            distinct_stems=bool(distinct_stems),
            no_crossing=no_crossing,
            tags_by_word=tags_by_word,
        )
    return LoadOptions(
        min_score=min_score, allow_dupes=allow_dupes, strict=strict, controls=controls, language=language
    )


def _count(problem: Problem, slot_id: int) -> int:
    domain = problem.domains[slot_id]
    return int(domain.sum()) if hasattr(domain, "sum") else int(domain).bit_count()


def _replace_grid(puzzle: Puzzle, grid: Grid) -> Puzzle:
    from xwcp.formats import puzzle_from_fill

    return puzzle_from_fill(puzzle, grid)


# ----- one call per job -------------------------------------------------------------------------


def fill(
    grid: GridLike,
    words: WordsLike = None,
    *,
    min_score: int = 50,
    locks: LocksLike = None,
    bans: BansLike = None,
    min_score_by_slot: SlotMinsLike = None,
    region: RegionLike = None,
    max_shared_substring: int | None = None,
    filters_by_slot: FiltersLike = None,
    distinct_stems: bool | None = None,
    no_crossing: CrossingsLike = None,
    tags_by_word: TagsLike = None,
    allow_dupes: bool = False,
    strict: bool = False,
    language: LanguageLike = None,
    backend: str = "auto",
    time_limit_s: float | None = None,
    seed: int = 0,
    count: int | None = None,
    min_diff: int | None = None,
    quality: bool = False,
    progress: Callable[[Progress], None] | None = None,
    abort: threading.Event | None = None,
    max_processes: int | None = None,
) -> FillAnswer:
    """Fill a grid: every slot a listed word, crossings agreeing, no word twice; or prove it cannot be done.

    The grid and the options are those of `Session`; the fill options those of `Session.fill`. With `quality`
    the stem rule is on unless `distinct_stems=False` (as `xwcp fill --quality`).

    Example:
        >>> answer = xwcp.fill("models/5x5-open.txt", locks={"1a": "crane"}, time_limit_s=10)
        >>> answer["1A"], answer.rows[0], answer.quality.min_score  # doctest: +SKIP
        ('CRANE', 'CRANE', 50)
    """
    options = load_options(
        min_score=min_score,
        locks=locks,
        bans=bans,
        min_score_by_slot=min_score_by_slot,
        region=region,
        max_shared_substring=max_shared_substring,
        filters_by_slot=filters_by_slot,
        distinct_stems=quality if distinct_stems is None else distinct_stems,
        no_crossing=no_crossing,
        tags_by_word=tags_by_word,
        allow_dupes=allow_dupes,
        strict=strict,
        language=language,
    )
    return Session._loaded(grid, words, options).fill(
        backend=backend,
        time_limit_s=time_limit_s,
        seed=seed,
        count=count,
        min_diff=min_diff,
        quality=quality,
        progress=progress,
        abort=abort,
        max_processes=max_processes,
    )


def check(
    grid: GridLike,
    words: WordsLike = None,
    *,
    min_score: int = 50,
    locks: LocksLike = None,
    bans: BansLike = None,
    min_score_by_slot: SlotMinsLike = None,
    region: RegionLike = None,
    max_shared_substring: int | None = None,
    filters_by_slot: FiltersLike = None,
    distinct_stems: bool | None = None,
    no_crossing: CrossingsLike = None,
    tags_by_word: TagsLike = None,
    allow_dupes: bool = False,
    strict: bool = False,
    language: LanguageLike = None,
    backend: str = "auto",
    time_limit_s: float | None = 10.0,
    seed: int = 0,
) -> CheckAnswer:
    """Can the grid be filled? `.verdict` is Verdict.FILLABLE, UNFILLABLE or UNKNOWN; `.core` names the
    slots that cannot be filled together. Options as `Session` and `Session.check`."""
    options = load_options(
        min_score=min_score,
        locks=locks,
        bans=bans,
        min_score_by_slot=min_score_by_slot,
        region=region,
        max_shared_substring=max_shared_substring,
        filters_by_slot=filters_by_slot,
        distinct_stems=distinct_stems,
        no_crossing=no_crossing,
        tags_by_word=tags_by_word,
        allow_dupes=allow_dupes,
        strict=strict,
        language=language,
    )
    return Session._loaded(grid, words, options).check(backend=backend, time_limit_s=time_limit_s, seed=seed)


def domains(
    grid: GridLike,
    words: WordsLike = None,
    *,
    slot: SlotLike | None = None,
    k: int | None = None,
    by: str = "score",
    min_score: int = 50,
    locks: LocksLike = None,
    bans: BansLike = None,
    min_score_by_slot: SlotMinsLike = None,
    region: RegionLike = None,
    max_shared_substring: int | None = None,
    filters_by_slot: FiltersLike = None,
    distinct_stems: bool | None = None,
    no_crossing: CrossingsLike = None,
    tags_by_word: TagsLike = None,
    allow_dupes: bool = False,
    strict: bool = False,
    language: LanguageLike = None,
) -> DomainsAnswer:
    """The live words of every slot: `domains(grid)["6D"]` is a list of (word, score) pairs, best first.
    Options as `Session` and `Session.domains`."""
    options = load_options(
        min_score=min_score,
        locks=locks,
        bans=bans,
        min_score_by_slot=min_score_by_slot,
        region=region,
        max_shared_substring=max_shared_substring,
        filters_by_slot=filters_by_slot,
        distinct_stems=distinct_stems,
        no_crossing=no_crossing,
        tags_by_word=tags_by_word,
        allow_dupes=allow_dupes,
        strict=strict,
        language=language,
    )
    return Session._loaded(grid, words, options).domains(slot, k=k, by=by)


def suggest(
    grid: GridLike,
    slot: SlotLike,
    words: WordsLike = None,
    *,
    k: int = 10,
    by: str = "score",
    verify: bool = False,
    backend: str = "auto",
    time_limit_s: float | None = 5.0,
    seed: int = 0,
    show_fill: bool = False,
    min_score: int = 50,
    locks: LocksLike = None,
    bans: BansLike = None,
    min_score_by_slot: SlotMinsLike = None,
    region: RegionLike = None,
    max_shared_substring: int | None = None,
    filters_by_slot: FiltersLike = None,
    distinct_stems: bool | None = None,
    no_crossing: CrossingsLike = None,
    tags_by_word: TagsLike = None,
    allow_dupes: bool = False,
    strict: bool = False,
    language: LanguageLike = None,
    max_processes: int | None = None,
) -> Suggestions:
    """Ranked words for one slot: `suggest(grid, "6D", k=10, verify=True)` is a list of Suggestion
    (`.word`, `.score`, `.verdict`). Options as `Session` and `Session.suggest`."""
    options = load_options(
        min_score=min_score,
        locks=locks,
        bans=bans,
        min_score_by_slot=min_score_by_slot,
        region=region,
        max_shared_substring=max_shared_substring,
        filters_by_slot=filters_by_slot,
        distinct_stems=distinct_stems,
        no_crossing=no_crossing,
        tags_by_word=tags_by_word,
        allow_dupes=allow_dupes,
        strict=strict,
        language=language,
    )
    return Session._loaded(grid, words, options).suggest(
        slot,
        k=k,
        by=by,
        verify=verify,
        backend=backend,
        time_limit_s=time_limit_s,
        seed=seed,
        show_fill=show_fill,
        max_processes=max_processes,
    )


def heatmap(
    grid: GridLike,
    words: WordsLike = None,
    *,
    core: bool = True,
    min_score: int = 50,
    locks: LocksLike = None,
    bans: BansLike = None,
    min_score_by_slot: SlotMinsLike = None,
    region: RegionLike = None,
    max_shared_substring: int | None = None,
    filters_by_slot: FiltersLike = None,
    distinct_stems: bool | None = None,
    no_crossing: CrossingsLike = None,
    tags_by_word: TagsLike = None,
    allow_dupes: bool = False,
    strict: bool = False,
    language: LanguageLike = None,
) -> HeatMap:
    """How many letters each cell can still take: `.counts` (rows; None for blocks), `.save_png(path)`.
    Options as `Session` and `Session.heatmap`."""
    options = load_options(
        min_score=min_score,
        locks=locks,
        bans=bans,
        min_score_by_slot=min_score_by_slot,
        region=region,
        max_shared_substring=max_shared_substring,
        filters_by_slot=filters_by_slot,
        distinct_stems=distinct_stems,
        no_crossing=no_crossing,
        tags_by_word=tags_by_word,
        allow_dupes=allow_dupes,
        strict=strict,
        language=language,
    )
    return Session._loaded(grid, words, options).heatmap(core=core)


def find_core(
    grid: GridLike,
    words: WordsLike = None,
    *,
    backend: str = "backtrack",
    time_limit_s: float | None = 5.0,
    seed: int = 0,
    min_score: int = 50,
    locks: LocksLike = None,
    bans: BansLike = None,
    min_score_by_slot: SlotMinsLike = None,
    region: RegionLike = None,
    max_shared_substring: int | None = None,
    filters_by_slot: FiltersLike = None,
    distinct_stems: bool | None = None,
    no_crossing: CrossingsLike = None,
    tags_by_word: TagsLike = None,
    allow_dupes: bool = False,
    strict: bool = False,
    language: LanguageLike = None,
) -> CoreAnswer | None:
    """Why a grid cannot be filled: a CoreAnswer whose `.slots` are the names of a minimal set of slots
    that cannot all be filled together; None when the grid is fillable. Options as `Session` and
    `Session.find_core`."""
    options = load_options(
        min_score=min_score,
        locks=locks,
        bans=bans,
        min_score_by_slot=min_score_by_slot,
        region=region,
        max_shared_substring=max_shared_substring,
        filters_by_slot=filters_by_slot,
        distinct_stems=distinct_stems,
        no_crossing=no_crossing,
        tags_by_word=tags_by_word,
        allow_dupes=allow_dupes,
        strict=strict,
        language=language,
    )
    return Session._loaded(grid, words, options).find_core(backend=backend, time_limit_s=time_limit_s, seed=seed)


def design(
    themes: ThemesLike = None,
    *,
    size: SizeLike = "15x15",
    at: AtLike = None,
    symmetry: str | Symmetry = "rotational",
    style: str | Style = "american",
    max_words: int | None = None,
    min_words: int | None = None,
    max_blocks: int | None = None,
    max_length: int | None = None,
    count: int = 1,
    min_diff: int = 8,
    time_limit_s: float | None = None,
    quality_time_s: float = 20.0,
    words: WordsLike = None,
    min_score: int = 50,
    bans: BansLike = None,
    seed: int = 0,
    progress: Callable[[DesignEvent], None] | None = None,
    language: LanguageLike = None,
) -> DesignAnswer:
    """Design grids around theme entries: symmetric block patterns, each proven fillable and filled for quality.

    The options are those of `xwcp design` (the same defaults, the same search: `xwcp.designer`).

    Args:
        themes: the theme entries: one word, or a list of words (any case; they need not be in the list).
        size: "15x15" (or "15"), a side (15) or (width, height).
        at: where theme entries go: {"WORD": (row, col, "A")} with rows and columns from 1, "A" across
            and "D" down (or the text "WORD=row,col,A", or a list of those). A word here need not be
            repeated in `themes`.
        symmetry: "rotational" (180 degrees), "mirror" (left-right) or "none".
        style: "american" (every letter checked) or "british" (unchecked letters, never two in a row).
        max_words: most entries (None: 78 on a 15x15, 32 British; other sizes by area).
        min_words: fewest entries (None: `max_words` - 4, relaxed when no pattern keeps it).
        max_blocks: most blocks (None: 38 on a 15x15, 67 British; other sizes by area).
        max_length: longest entry that is not a theme entry (None: 8 on a 15x15, no cap British;
            relaxed when no pattern keeps it).
        count: designs wanted.
        min_diff: cells (block or white) in which every two designs differ.
        time_limit_s: stop after this many seconds in all (None: 120 per design asked for).
        quality_time_s: seconds of quality search per design (0 keeps the first fill).
        words: the word list, as for `xwcp.fill` (None: the embedded default list).
        language: the language of the themes and the list (a pack's code, see `xwcp.languages()`; None:
            English, or a loaded WordList's).
        min_score: every entry but the theme entries is a word scored at least this.
        bans: words no entry may take: one word or a set of words.
        seed: random seed, 0 to 2**31 - 1 (patterns and fills).
        progress: called with each `xwcp.DesignEvent` as the search goes (`.kind`, `.seconds`, `.text`;
            `.grid` the pattern being tried).

    Returns:
        A DesignAnswer: `.status`, `.designs` (best first; each with `.rows`, `.grid`, `design["1A"]`,
        `.quality`, `.themes`, `.save(path)`), `.reason` when fewer than `count` were found.

    Raises:
        TypeError, InputError: an option of the wrong type or value (the message names it).

    Example:
        >>> answer = xwcp.design(["ASTRONOMER", "TELESCOPES"], size="11x11", time_limit_s=30)
        >>> answer.designs[0].rows, answer.designs[0].themes   # doctest: +SKIP
    """
    from enum import Enum

    theme_words = read_theme_words(themes)
    alphabet = read_language(language) or list_alphabet(words) or ENGLISH
    at_items = read_at(at)
    size_text = read_size(size)
    choices: list[str] = []
    for name, value in (("symmetry", symmetry), ("style", style)):
        if isinstance(value, Enum):
            value = value.value
        if not isinstance(value, str):
            raise TypeError(
                f"{name} must be a str such as {'rotational' if name == 'symmetry' else 'american'!r}, "
                f"not {type_name(value)} {value!r}"
            )
        choices.append(value.strip())
    max_words = check_optional_int("max_words", max_words, 1)
    min_words = check_optional_int("min_words", min_words, 0)
    max_blocks = check_optional_int("max_blocks", max_blocks, 0)
    max_length = check_optional_int("max_length", max_length, 3)
    count = check_int("count", count, 1)
    min_diff = check_int("min_diff", min_diff, 1)
    time_limit_s = check_seconds("time_limit_s", time_limit_s)
    quality_time_s = check_number("quality_time_s", quality_time_s, 0.0)
    min_score = check_int("min_score", min_score)
    seed = check_int("seed", seed, 0, MAX_SEED)
    banned = Controls(bans=bans).bans
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable taking an xwcp.DesignEvent, not {type_name(progress)}")
    from xwcp.designer.request import make_request
    from xwcp.designer.search import design as run_design

    request = make_request(
        size=size_text,
        themes=theme_words,
        at=at_items,
        symmetry=choices[0],
        style=choices[1],
        max_words=max_words,
        min_words=min_words,
        max_blocks=max_blocks,
        max_length=max_length,
        count=count,
        min_diff=min_diff,
        time_limit_s=time_limit_s,
        quality_time_s=quality_time_s,
        seed=seed,
        min_score=min_score,
        bans=sorted(banned),
        alphabet=alphabet,
    )
    word_list = read_words(words, alphabet=alphabet)
    from xwcp.services.load import warn_list

    warn_list(word_list, _warn)
    return DesignAnswer.build(run_design(request, word_list, progress=progress), request)
