"""Run many fills, or a bench sweep, as Dask tasks: on a local cluster by default, or on an existing scheduler.

Modules: `cluster` (open a client: a `LocalCluster` on this machine's cores, or a scheduler
address), `tasks` (what runs on a worker: the word list loaded once per worker, each fill
in a forked child under its own time limit and a hard guard), `batch` (`xwcp batch`: one task
per grid, one result file per grid written as it arrives, resumable) and `sweep` (`xwcp bench
--cluster`: one task per (grid, entrant, seed), rows written as they arrive).

Needs the `dist` extra: `pip install 'xwcp[dist]'` (dask[distributed]).
"""
