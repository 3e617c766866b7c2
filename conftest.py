"""The test session's own folders: every test, and every notebook kernel nbval or papermill
starts, works in a study cache (and IPython, matplotlib and Jupyter runtime folders) this
session creates and removes, never the user's ``~/.cache/gamelib`` or ``$GAMELIB_CACHE``.

Set before any test module is imported and before any kernel starts: kernels inherit the
environment of the process that starts them.  A test that needs another cache sets its own
(``monkeypatch.setenv`` or a subprocess's ``env``).  ``tests/test_project.py`` checks, with a
temporary home folder, that a test session leaves ``~/.cache/gamelib`` as it found it.

nbval runs the committed notebooks with one core kept busy (a spinning process beside them, from
the first notebook on): their outputs must still be the committed ones, so no clock cuts a
committed answer on a loaded machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

#: the folders a test session keeps to itself, by the variable that moves each
PRIVATE = ("GAMELIB_CACHE", "IPYTHONDIR", "MPLCONFIGDIR", "JUPYTER_RUNTIME_DIR")

_ROOT = tempfile.mkdtemp(prefix="gamelib-tests-")
for _name in PRIVATE:
    os.environ[_name] = os.path.join(_ROOT, _name.lower())
    os.makedirs(os.environ[_name], exist_ok=True)


#: the spinning process beside nbval's notebooks (started with the first)
_BUSY: list[subprocess.Popen[bytes]] = []


def pytest_runtest_setup(item: Any) -> None:
    if item.path.suffix == ".ipynb" and not _BUSY:
        _BUSY.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))


def pytest_unconfigure() -> None:
    for busy in _BUSY:
        busy.kill()
        busy.wait()
    shutil.rmtree(_ROOT, ignore_errors=True)
