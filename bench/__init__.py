"""Benchmarks: scripts that print figures (never timed unit tests). ``make bench`` runs them all.

Each area is a folder under ``bench/``: ``engine``, ``api``, ``scale``. ``python -m bench`` runs
``python -m bench.<area>`` for every area that has a ``__main__.py``, and otherwise every module
``bench/<area>/bench_*.py``, one after another in fresh processes, and prints their output.
Figures and what they mean go in ``docs/performance.md``.
"""
