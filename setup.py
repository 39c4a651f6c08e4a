"""Build script: only declares the C extensions; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "croupier.engine.evaluate._ceval",
            sources=["src/croupier/engine/evaluate/_ceval.c"],
            extra_compile_args=["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
        # the simulation core; it compiles the evaluator's source in (see its header)
        Extension(
            "croupier.analysis._csim",
            sources=["src/croupier/analysis/_csim.c"],
            depends=["src/croupier/engine/evaluate/_ceval.c"],
            extra_compile_args=["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
    ],
)
