"""``python -m gamelib …`` is the same as the ``gamelib`` command."""

import sys

from gamelib.cli import main

sys.exit(main())
