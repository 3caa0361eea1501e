"""`python -m replayable`: the `replayable` command line (`replayable._cli.main`)."""

from __future__ import annotations

import sys

from replayable._cli import main

if __name__ == "__main__":
    sys.exit(main())
