"""Build the compiled kernels (xwcp/_kernel.c: AC-3 support counts; xwcp/_bitsearch.c: the fill search)."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "xwcp._kernel",
            sources=["xwcp/_kernel.c", "xwcp/_bitsearch.c"],
            extra_compile_args=["-O3", "-std=c99"],
        )
    ]
)
