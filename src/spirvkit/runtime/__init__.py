"""Launching compiled kernels: argument binding, NDRange, worker threads, faults."""
