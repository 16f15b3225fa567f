"""Build the compiled search kernel (xwcp/_kernel.c); everything else is in pyproject.toml."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "xwcp._kernel",
            sources=["xwcp/_kernel.c"],
            extra_compile_args=["-O3", "-std=c99"],
        )
    ]
)
