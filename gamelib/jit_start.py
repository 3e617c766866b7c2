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


@cache
def start() -> bool:
    """Load numba's CPU target (its typing and lowering registries) and its cffi check once;
    returns whether anything was hidden (nothing is when every :data:`HIDDEN` package is
    already imported)."""
    from numba.core.registry import cpu_target

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
