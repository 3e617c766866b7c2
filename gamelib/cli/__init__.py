"""The command line: ``gamelib simulate GAME …``, ``gamelib sweep GAME …``,
``gamelib ladder GAME …``, ``gamelib tune GAME …``, ``gamelib verdict GAME …``,
``gamelib compare GAME …``, ``gamelib report GAME …``, ``gamelib replay FILE``, ``gamelib games``.

Every rule field of a game's config is a flag (``--top-layer surface``, ``--must-move one``,
``--straight-line true``, ``--forbidden-pile-size none``, ``--suit-sizes 13,13,13,9`` …).
Bad input gets one line on stderr and exit status 2, never a traceback.

The package has six rooms, each importing only the ones listed before it:

- :mod:`gamelib.cli.args` — the one-line parser, a flag per rule field, flags into configs;
- :mod:`gamelib.cli.simulate` — ``simulate``, ``sweep``, ``replay``, ``games``;
- :mod:`gamelib.cli.ladder` — ``ladder``;
- :mod:`gamelib.cli.verdicts` — ``verdict``, ``report``, ``compare``;
- :mod:`gamelib.cli.tune` — ``tune`` and ``tune ladder``;
- :mod:`gamelib.cli.main` — the whole parser and :func:`main`.
"""

from __future__ import annotations

from gamelib.cli.args import FLAGS, CliError
from gamelib.cli.main import GUIDE_PAGES, build_parser, main

__all__ = ["FLAGS", "GUIDE_PAGES", "CliError", "build_parser", "main"]
