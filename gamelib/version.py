"""gamelib's version, in a module of its own so that any module may read it without importing the
package's top (``gamelib/__init__.py`` re-exports it)."""

#: the version written into every result's provenance and record
__version__ = "0.1.0"
