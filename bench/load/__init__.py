"""The load harness (docs/benchmarks.md, issue #16): loopback WebSocket clients in several
processes, 6 seated players per table, ~1 action per table per second, against croupier and
against a bare Starlette + uvicorn broadcast baseline measured in the same run."""
