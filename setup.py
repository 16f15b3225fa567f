"""Build the compiled kernels (xwcp/engine/_kernel.c: AC-3 support counts; xwcp/engine/_bitsearch.c: the fill search,
generic in the alphabet's size and, through xwcp/engine/_bitsearch_en.c, again for 26 letters)."""

import platform

from setuptools import Extension, setup

# The search counts bits all the time; without this GCC calls a slow library routine for each
# popcount (28% of search time measured). Every x86-64 CPU since 2008 has the instruction.
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

setup(
    ext_modules=[
        Extension(
            "xwcp.engine._kernel",
            sources=["xwcp/engine/_kernel.c", "xwcp/engine/_bitsearch.c", "xwcp/engine/_bitsearch_en.c"],
            depends=["xwcp/engine/_bitsearch.c"],  # _bitsearch_en.c includes it
            extra_compile_args=["-O3", "-std=c99", *POPCNT],
        )
    ]
)
