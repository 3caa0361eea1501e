"""No hand-written module uses another module's private names (ARCHITECTURE.md, "Fenced layers").

A name with a leading underscore belongs to its module. Another module may import a private *module*
(`replayable._json`, `replayable._base`, `replayable._cli`, ...) but only its public names: a helper
that two modules need is public in its one home. This walks the source with `ast` (nothing is imported)
and fails on `from m import _x` and on `m._x` where `m` is another module of the package.
Generated code (`replayable._generated`) is left out: it is written by the generator, not by hand.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import replayable

PACKAGE = Path(replayable.__file__).parent
ROOT = PACKAGE.parent


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(dotted: str) -> bool:
    target = ROOT.joinpath(*dotted.split("."))
    return target.with_suffix(".py").is_file() or (target / "__init__.py").is_file()


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def private_uses(path: Path, source: str | None = None) -> list[str]:
    """`file:line: what` for each use in `path` (or in `source`, read as that file) of another module's
    private name."""
    module = _module_name(path)
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, filename=str(path))
    found: list[str] = []
    modules: dict[str, str] = {}  # local name -> the replayable module it stands for
    where = path.relative_to(ROOT)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, path.name == "__init__.py")
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if _is_module(full):
                    modules[alias.asname or alias.name] = full
                elif _private(alias.name) and base != module and base.split(".")[0] == "replayable":
                    found.append(f"{where}:{node.lineno}: from {base} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "replayable":
                    continue
                if alias.asname:
                    modules[alias.asname] = alias.name
                else:
                    modules["replayable"] = "replayable"
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        dotted = _dotted(node.value)
        if dotted is None:
            continue
        head, _, rest = dotted.partition(".")
        if head not in modules:
            continue
        target = modules[head] + (f".{rest}" if rest else "")
        if _is_module(target) and target != module:
            found.append(f"{where}:{node.lineno}: {dotted}.{node.attr}")
    return found


def hand_written_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_generated" not in p.relative_to(PACKAGE).parts)


def test_no_module_uses_another_modules_private_names() -> None:
    found = [use for path in hand_written_modules() for use in private_uses(path)]
    assert not found, (
        "private names used across modules (make the name public in its one home module, or move the "
        "helper where it belongs):\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from replayable.items import _coerce\n", ["from replayable.items import _coerce"]),
        ("from .items import _coerce\n", ["from replayable.items import _coerce"]),
        ("from replayable import items\nitems._coerce(1)\n", ["items._coerce"]),
        ("import replayable.items as it\nit._coerce(1)\n", ["it._coerce"]),
        ("import replayable\nreplayable.items._coerce(1)\n", ["replayable.items._coerce"]),
        ("from replayable import _json\n_json.loads('1')\n", []),  # a private module, a public name
        ("from replayable._json import loads\n", []),
        ("from replayable._json import _scan\n", ["from replayable._json import _scan"]),
        ("from .probe import _own\n", []),  # its own private names
        ("import json\njson._default_decoder\n", []),  # other packages are their own business
        ("class A:\n    def f(self):\n        return self._x\n", []),
    ],
)
def test_the_check_sees_each_form(source: str, expected: list[str]) -> None:
    """The walker itself: each form of a private cross-module use is found, and nothing else is."""
    probe = PACKAGE / "probe.py"  # read as if it were this module of the package; nothing is written
    assert not probe.exists()
    found = private_uses(probe, source)
    assert [f.split(": ", 1)[1] for f in found] == expected
