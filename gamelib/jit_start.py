"""numba started for loading gamelib's compiled cores from its cache, and nothing more (issue 33).

A warm run compiles nothing: it loads each compiled function's machine code from numba's
on-disk cache.  numba's cache loader (``numba.core.caching.Cache.load_overload``) first
*refreshes* its CPU target — imports every implementation module it has (``numba.np.arraymath``,
``numba.cpython.unicode``, the typed containers, …), installs their typing and lowering
registries and initialises 251 ``@overload`` templates — which is what *compiling* needs, and
runs the NRT initialisation and the third-party extensions' entry points on the way.  For
gamelib's own functions the loaded code needs only the NRT (``rtsys.initialize``; without it a
loaded function that allocates crashes), so :func:`start` replaces the loader with one that, for a
function defined under gamelib's package folder, initialises the NRT and loads, without the
refresh; every other function (a notebook's own ``@njit(cache=True)``, a plugin's) goes to
numba's loader unchanged.  Compiling is untouched: numba's compiler refreshes both contexts
itself (``numba.core.compiler.CompilerBase``), so a cold cache, an edited kernel or any other
jitted code compiles exactly as before.  The refresh was about 0.28 s of a small warm
``gamelib simulate`` (0.95 → 0.67 s, medians of 15 interleaved runs, and the same games; see
``docs/performance.md``).  gamelib's kernels use no numba extension, which is what the refresh's
entry points would load.

Three more of numba's imports are settled here, each only when nothing has loaded it yet:

* ``cffi`` (and ``pycparser``'s lexer, which compiles its regular expressions: about 0.03 s):
  numba imports it the first time it types an argument of a kind it does not know, only to
  tell whether that argument is a cffi function (``numba.core.typing.cffi_utils``).
  :func:`start` imports that module with ``cffi`` hidden, so compiled code cannot call cffi
  functions in this process; gamelib's do not.
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

(Before the loader was replaced, :func:`start` refreshed the target itself with ``scipy.linalg``
hidden, because ``numba.np.arraymath`` imports it at import time only to choose
``np.convolve``'s inner product; a warm run no longer imports ``arraymath`` at all, and a
compile imports it as numba always does.)
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

#: what numba's optional parts would import and gamelib's kernels never use
HIDDEN = ("cffi",)

#: gamelib's package folder: the compiled functions defined under it load without a refresh
PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


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


def is_gamelibs(cache: Any) -> bool:
    """Whether a numba ``Cache`` belongs to a function defined in a file under :data:`PACKAGE`."""
    try:
        filename = str(cache._py_func.__code__.co_filename)
    except AttributeError:  # not a Python function's cache
        return False
    return os.path.abspath(filename).startswith(PACKAGE)


def _load_gamelibs_functions_without_refresh() -> None:
    """Replace numba's cache loader (``Cache.load_overload``, numba 0.68
    ``numba/core/caching.py``) by one that loads gamelib's functions after the NRT's
    initialisation instead of a whole refresh of the target, and hands every other function
    to numba's own loader."""
    from numba.core.caching import Cache
    from numba.core.runtime.nrt import rtsys

    numbas_own: Any = Cache.load_overload
    if getattr(numbas_own, "gamelib", False):
        return

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        if not is_gamelibs(self):
            return numbas_own(self, sig, target_context)
        rtsys.initialize(target_context)  # what loaded code needs of the refresh; once
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        return None  # the guard swallowed an I/O error: numba compiles instead

    load_overload.gamelib = True  # type: ignore[attr-defined]
    load_overload.__doc__ = numbas_own.__doc__
    Cache.load_overload = load_overload  # type: ignore[method-assign]


@cache
def start() -> bool:
    """Make numba load gamelib's compiled functions without refreshing its whole CPU target,
    settle its cffi check, type plain arrays without importing ``numpy.ma``, and take away the
    finder of :func:`hide_coverage_from_numba` (numba is imported by now); returns whether
    ``cffi`` was hidden (it is not when already imported)."""
    if _COVERAGE_FINDER in sys.meta_path:
        sys.meta_path.remove(_COVERAGE_FINDER)
    _ndarray_typeof_without_numpy_ma()
    _load_gamelibs_functions_without_refresh()

    hide = any(h not in sys.modules for h in HIDDEN)
    finder = _Hide()
    if hide:
        sys.meta_path.insert(0, finder)
    try:
        from numba.core.typing import cffi_utils  # noqa: F401  (its cffi import, settled now)
    finally:
        if hide:
            sys.meta_path.remove(finder)
    return hide
