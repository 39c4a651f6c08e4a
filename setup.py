"""Build script: only declares the C extension; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "croupier.engine.evaluate._ceval",
            sources=["src/croupier/engine/evaluate/_ceval.c"],
            extra_compile_args=["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        )
    ],
)
