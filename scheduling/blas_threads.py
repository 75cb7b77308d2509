"""One OpenBLAS thread for the library's processes, unless the process chose its own count.

The library's matrix products are a few rows by a few columns (and the cost engine's sums use
no BLAS at all: :mod:`scheduling.numbers`), far below the size at which OpenBLAS splits a product
between threads. Its worker threads still start with numpy and spin, waiting for work: on this
project's two-core machines that is about 0.1 s of CPU at every start (``benchmarks/RESULTS.md``
§22), and in a Celery worker per core they would only compete with the other workers.

Importing this module sets ``OPENBLAS_NUM_THREADS=1`` when the environment does not set it. It
takes effect only if numpy has not been imported yet, so :mod:`scheduling` imports it first; a
process that imported numpy before, or set the variable itself, keeps what it has.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
