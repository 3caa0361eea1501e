"""Compatibility with the pydantic versions the package supports (imported first by `replayable`).

The generated models (datamodel-code-generator 0.89) and the hand-written layer read the `MISSING`
sentinel from `pydantic.experimental.missing_sentinel`, its home in pydantic 2.12 and 2.13. pydantic 2.14
moved it to `pydantic` and made the old name a module `__getattr__` that warns
(`PydanticDeprecatedSince214`) on every import: an app running with warnings as errors (`-W error`,
pytest's `filterwarnings = error`) would fail inside the library. The sentinel is the same object in
both places; naming it in the old module's namespace makes the old import resolve without the warning.
Nothing else in pydantic is touched.
"""

from __future__ import annotations

import importlib

__all__: list[str] = []

_OLD = importlib.import_module("pydantic.experimental.missing_sentinel")
if "MISSING" not in vars(_OLD):  # pydantic >= 2.14: the name is served by a warning __getattr__
    from pydantic_core import MISSING as _MISSING

    vars(_OLD)["MISSING"] = _MISSING
