"""``python -m gamelib.cli``: the same command line as ``gamelib`` and ``python -m gamelib``."""

import sys

from gamelib.cli.main import main

sys.exit(main())
