"""What test modules share: data paths, file makers, hypothesis strategies, checks and runners.

Test modules import from here (or get fixtures from a ``conftest.py``), never from one another:
a test module is collected, not imported. Some modules here are also imported by name from
other processes (``pool_jobs`` by pool workers, ``read_each`` run with ``python -m``) and by
``benchmarks/`` and ``fuzz/``.
"""
