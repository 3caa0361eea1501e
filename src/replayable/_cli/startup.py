"""How the `replayable` command starts its own process: without pydantic's plugin discovery.

pydantic looks for plugins (the `pydantic` entry point group) when the first validator of a process
is built: `pydantic.plugin._loader` imports `importlib.metadata` (with `email`, `zipfile`, `csv`, ...)
and scans the entry points of every installed distribution. For a one-item `replayable check` that is
most of the time spent after `import replayable` (benchmarks/README.md, "Start-up"). The command
line owns its process and runs no code of the user's, so it skips that discovery, as pydantic's own
`PYDANTIC_DISABLE_PLUGINS=__all__` does, and also skips the import behind it. The library never
does this: an app importing `replayable` keeps its pydantic plugins (observability tools hook every
validator through them).

A user who wants their plugins in the command line sets `PYDANTIC_DISABLE_PLUGINS` themselves (to an
empty value to load them all, or to names to leave out, as pydantic reads it): a value already set is
never changed, and pydantic's own loader is used then.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterable
from typing import Any

__all__ = ["ENV", "LOADER", "skip_pydantic_plugins"]

ENV = "PYDANTIC_DISABLE_PLUGINS"
"""pydantic's switch: `__all__`, `1` or `true` turn plugin discovery off, names leave those plugins out."""
LOADER = "pydantic.plugin._loader"
"""The module `pydantic.plugin._schema_validator.create_schema_validator` imports `get_plugins` from
(tests/contracts/test_startup.py fails if pydantic moves it)."""


def _get_plugins() -> Iterable[Any]:
    """What pydantic's `get_plugins` returns under `PYDANTIC_DISABLE_PLUGINS=__all__`: no plugins."""
    return ()


def skip_pydantic_plugins() -> bool:
    """Turn pydantic's plugin discovery off for this process, unless the user chose with `ENV`.

    Sets `PYDANTIC_DISABLE_PLUGINS=__all__` (inherited by `--jobs` workers) and, when no validator has
    been built yet, stands a loader in for `pydantic.plugin._loader` whose `get_plugins()` returns no
    plugins, as pydantic's own does under that setting, without importing `importlib.metadata`.
    Returns whether discovery is skipped. Only for the `replayable` command's own process."""
    if ENV in os.environ:
        return False
    os.environ[ENV] = "__all__"
    if LOADER not in sys.modules:
        loader = types.ModuleType(LOADER, "No pydantic plugins: replayable._cli.startup stands in for this loader.")
        loader.__dict__.update(
            PYDANTIC_ENTRY_POINT_GROUP="pydantic", get_plugins=_get_plugins, _plugins={}, _loading_plugins=False
        )
        sys.modules[LOADER] = loader
    return True
