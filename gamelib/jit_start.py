"""numba's CPU target loaded without importing ``scipy.linalg`` or ``cffi`` (issue 33, start-up).

numba loads the implementations of its CPU target at the first compiled call of a process
(``BaseContext.refresh``).  One of them, ``numba.np.arraymath``, imports
``scipy.linalg.cython_blas`` at import time for one purpose: to record whether a BLAS is there
(``_HAVE_BLAS``), which picks the inner product of ``np.convolve`` / ``np.correlate`` on floats
(BLAS, or a plain loop).  With scipy installed that import and cffi's below cost about 0.13 s,
a fifth of a small warm ``gamelib simulate`` run (0.61 s against 0.48 s, interleaved runs; see
``docs/performance.md``), and no gamelib kernel calls ``np.convolve``, ``np.correlate`` or
``np.linalg``.

:func:`start` loads the target once with ``scipy.linalg`` hidden from the import system, so
``_HAVE_BLAS`` is False in this process — numba's documented behaviour without scipy: those two
functions use the loop, and ``np.linalg`` in compiled code would still import scipy when it is
compiled (numba's ``ensure_blas`` runs then, after this).  Nothing is hidden when
``scipy.linalg`` is already imported (a notebook that loaded pandas' or statsmodels' scipy
first): then it costs nothing.  Nothing else changes: scipy imports as usual afterwards.

``cffi`` the same way: numba imports it (and ``pycparser``'s lexer, which compiles its regular
expressions: about 0.03 s) the first time it types an argument of a kind it does not know, only
to tell whether that argument is a cffi function (``numba.core.typing.cffi_utils``).  Started
here without it, compiled code cannot call cffi functions in this process; gamelib's do not.

Two more of numba's imports are settled the same way, each only when nothing has loaded it yet:

* ``coverage`` (about 0.03 s): ``numba.misc.coverage_support`` imports it at numba's import, to
  tell a *running* coverage measurement which lines of compiled code ran.  A measurement that
  runs has imported coverage before gamelib (``coverage run``, pytest-cov), and then nothing is
  hidden.  :func:`hide_coverage_from_numba` (called by ``gamelib/__init__.py``, before any
  compiled module imports numba) refuses ``coverage`` to that one import, while it runs, and
  nothing else; :func:`start` takes the finder away again.  The cost: a coverage measurement
  *started later in the same process* does not see compiled lines (it never could see their
  machine code; numba's support maps them back to source lines).
* ``numpy.ma`` (about 0.04 s): numba's ``typeof`` of every array inside a tuple argument (the
  kernels' tables are named tuples of arrays) asks ``isinstance(val, np.ma.MaskedArray)``, and
  ``np.ma`` is imported on first access.  :func:`start` registers, for ``np.ndarray``, numba's
  own typing with that test skipped for arrays whose type *is* ``np.ndarray`` — a masked array
  never is — and numba's own function for everything else, so every type is the one numba gives.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

#: what numba's optional parts would import and gamelib's kernels never use
HIDDEN = ("scipy.linalg", "cffi")


class _Hide(importlib.abc.MetaPathFinder):
    """An import finder that refuses the :data:`HIDDEN` packages and their submodules, so a
    guarded ``import`` of one raises ImportError (as it would were it not installed)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> Any:
        if any(fullname == h or fullname.startswith(h + ".") for h in HIDDEN):
            raise ImportError(f"{fullname} is not loaded while numba's target starts")
        return None


class _HideCoverageFromNumba(importlib.abc.MetaPathFinder):
    """An import finder that refuses ``coverage`` while ``numba.misc.coverage_support`` is
    being imported (it is in ``sys.modules`` but has not yet set ``coverage_available``), and
    lets every other import through."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> Any:
        if fullname == "coverage" or fullname.startswith("coverage."):
            support = sys.modules.get("numba.misc.coverage_support")
            if support is not None and not hasattr(support, "coverage_available"):
                raise ImportError(f"{fullname} is not loaded while numba starts")
        return None


_COVERAGE_FINDER = _HideCoverageFromNumba()


def hide_coverage_from_numba() -> bool:
    """Install the finder that keeps numba's import from loading ``coverage``, unless numba or
    coverage is already imported; returns whether it was installed."""
    if "numba" in sys.modules or "coverage" in sys.modules:
        return False
    if _COVERAGE_FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _COVERAGE_FINDER)
    return True


def _ndarray_typeof_without_numpy_ma() -> None:
    """Register numba's ``typeof`` for ``np.ndarray`` with its masked-array test skipped for
    plain arrays (numba 0.68 ``numba/core/typing/typeof.py``, ``_typeof_ndarray``: the same
    dtype, dimensions, layout and read-only flag); any subclass goes to numba's own function."""
    import numpy as np
    from numba.core import errors, types
    from numba.core.typing.typeof import typeof_impl
    from numba.np import numpy_support

    numbas_own = typeof_impl.dispatch(np.ndarray)

    def typeof_ndarray(val: Any, c: Any) -> Any:
        if type(val) is not np.ndarray:
            return numbas_own(val, c)
        try:
            dtype = numpy_support.from_dtype(val.dtype)
        except errors.NumbaNotImplementedError:
            raise errors.NumbaValueError(f"Unsupported array dtype: {val.dtype}") from None
        layout = numpy_support.map_layout(val)
        return types.Array(dtype, val.ndim, layout, readonly=not val.flags.writeable)

    typeof_impl.register(np.ndarray)(typeof_ndarray)


@cache
def start() -> bool:
    """Load numba's CPU target (its typing and lowering registries) and its cffi check once,
    type plain arrays without importing ``numpy.ma``, and take away the finder of
    :func:`hide_coverage_from_numba` (numba is imported by now); returns whether anything was
    hidden (nothing is when every :data:`HIDDEN` package is already imported)."""
    from numba.core.registry import cpu_target

    if _COVERAGE_FINDER in sys.meta_path:
        sys.meta_path.remove(_COVERAGE_FINDER)
    _ndarray_typeof_without_numpy_ma()

    hide = any(h not in sys.modules for h in HIDDEN)
    finder = _Hide()
    if hide:
        sys.meta_path.insert(0, finder)
    try:
        cpu_target.typing_context.refresh()
        cpu_target.target_context.refresh()
        from numba.core.typing import cffi_utils  # noqa: F401  (its cffi import, settled now)
    finally:
        if hide:
            sys.meta_path.remove(finder)
    return hide
