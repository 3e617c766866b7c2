"""Side-by-side throughput benchmarks: ``make bench`` or ``python -m bench``."""
