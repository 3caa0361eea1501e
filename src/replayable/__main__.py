"""`python -m replayable`: the `replayable` command line (`replayable.cli.main`)."""

from __future__ import annotations

import sys

from replayable.cli import main

if __name__ == "__main__":
    sys.exit(main())
