"""The package version, in a module of its own that imports nothing: the caches (compiled
kernels, the grammar) key on it without importing the package's public API."""

__version__ = "0.1.0"
