"""Benchmarks (not part of the pass/fail suite). Run: `make bench` or `python -m tests.bench.run`."""
