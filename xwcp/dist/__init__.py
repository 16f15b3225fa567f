"""Run many fills as Dask tasks: on a local cluster by default, or on an existing scheduler.

Modules: `cluster` (open a client: a `LocalCluster` on this machine's cores, or a scheduler
address; the bench's sweep, `xwcp bench --cluster`, opens its client here too), `tasks` (what runs on a
worker: the word list loaded once per worker, each fill in a forked child under its own time limit and a
hard guard) and `batch` (`xwcp batch`: one task per grid, one result file per grid written as it arrives,
resumable). A bench run's task is the bench's own (`xwcp.bench.tasks`): the bench stands above this folder.

Needs the `dist` extra: `pip install 'xwcp[dist]'` (dask[distributed]).
"""
