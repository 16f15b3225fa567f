"""The Python front door: one call per job (fill, check, domains, suggest, heatmap, find_core, design), typed answers.

`xwcp.fill(...)` and its siblings live in `xwcp.library.jobs`, their answers in
`xwcp.library.answers`, and the checks every argument passes in `xwcp.services.inputs`. The
top-level `xwcp` package re-exports them lazily; this package imports nothing on its own, so
the numpy-free start-up path (xwcp/services/quick.py) may use `xwcp.services.inputs` without paying
for the rest.

Grid design (`xwcp design`) is one more job: `xwcp.design` in `jobs.py`, over the
design engine `xwcp.designer` (named so the function and the package do not share a name),
answering with a `DesignAnswer` from `answers.py`.
"""
