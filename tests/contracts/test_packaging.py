"""What the installed package ships and promises: type information (`py.typed`), the license, the JSON
Schema bundles, dependency ranges a user's environment can satisfy.

CI runs the whole suite twice: on the editable install (`make test`), and on the built wheel installed
into a fresh virtual environment (`.ci/run` sets REPLAYABLE_TEST_WHEEL to the wheel file there).
"""

from __future__ import annotations

import os
import sys
import tomllib
import zipfile
from importlib import metadata, resources
from pathlib import Path

import pytest
from conftest import ROOT, needs_checkout
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import replayable

WHEEL = os.environ.get("REPLAYABLE_TEST_WHEEL", "")


def test_the_package_is_typed() -> None:
    """PEP 561: without `py.typed` a user's `mypy --strict` sees no types from the package."""
    assert (resources.files("replayable") / "py.typed").is_file()


def test_every_schema_bundle_loads_from_the_installed_package() -> None:
    """Package data in a wheel (`replayable/schemas/`), schemas/dist/ in a checkout."""
    from replayable.schema import sides

    assert sides()
    for side in sides():
        assert replayable.json_schema(side)["$schema"].startswith("https://json-schema.org/")


def test_the_distribution_declares_its_license() -> None:
    meta = metadata.metadata("replayable")
    assert meta["License-Expression"] == "Apache-2.0"
    assert "LICENSE" in (meta.get_all("License-File") or [])


@needs_checkout
def test_the_license_file_is_the_apache_2_0_text() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    with (ROOT / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)["project"]
    assert project["license"] == "Apache-2.0" and project["license-files"] == ["LICENSE"]


def _extras() -> dict[str, list[Requirement]]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    return {name: [Requirement(r) for r in reqs] for name, reqs in extras.items()}


@needs_checkout
def test_the_sdks_are_pinned_for_the_tests_and_ranges_for_users() -> None:
    """The tests compare against one SDK release (a newer one never changes the suite's verdict); a user's
    extra stays a range that a project's own newer 3.x SDK satisfies."""
    extras = _extras()
    (pinned,) = [r for r in extras["test"] if r.name == "openai"]
    (spec,) = pinned.specifier
    assert spec.operator == "==" and spec.version.startswith("3."), pinned
    installed = metadata.version("openai")
    assert installed == spec.version, f"openai {installed} installed, the tests compare against {pinned}"
    (user,) = [r for r in extras["openai"] if r.name == "openai"]
    assert user.specifier.contains(spec.version) and user.specifier.contains("3.99.1")
    assert not user.specifier.contains("3.51.0")  # the library reads types that 3.57 added
    assert not user.specifier.contains("4.0.0")  # a major version may break the SDK's types


@needs_checkout
def test_dev_tools_are_pinned_exactly_and_dev_includes_test_and_docs() -> None:
    extras = _extras()
    assert any(r.name == "replayable" and "test" in r.extras for r in extras["dev"])
    assert any(r.name == "replayable" and "docs" in r.extras for r in extras["dev"])  # `make docs` needs them
    assert {"mkdocs", "mkdocs-material", "mkdocstrings", "mkdocstrings-python"} <= {r.name for r in extras["docs"]}
    for req in [*extras["test"], *extras["dev"], *extras["docs"]]:
        if req.name == "replayable":
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", f"{req} is pinned exactly"


def test_running_against_the_wheel_when_asked() -> None:
    """In CI's wheel run, `replayable` must come from the installed wheel, never from src/."""
    if not WHEEL:
        pytest.skip("REPLAYABLE_TEST_WHEEL is not set (`make test-wheel` sets it)")
    here = Path(replayable.__file__).resolve()
    assert (ROOT / "src") not in here.parents, f"replayable was imported from the checkout: {here}"
    assert "site-packages" in here.parts
    assert metadata.version("replayable") == replayable.__version__


def test_the_wheel_ships_types_license_and_bundles_and_nothing_else() -> None:
    if not WHEEL:
        pytest.skip("REPLAYABLE_TEST_WHEEL is not set (.ci/run sets it to the wheel it built)")
    names = zipfile.ZipFile(WHEEL).namelist()
    assert "replayable/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert {"replayable/schemas/input.json", "replayable/schemas/output.json"} <= set(names)
    # every module of the source tree is shipped (read from src/, so a moved module never makes this stale)
    sources = {
        "replayable/" + f.relative_to(ROOT / "src" / "replayable").as_posix()
        for f in (ROOT / "src" / "replayable").rglob("*.py")
    }
    assert "replayable/stream/_assembler.py" in sources and "replayable/_cli/inputs.py" in sources
    assert sorted(sources - set(names)) == []
    assert not [n for n in names if n.startswith(("tests/", "scripts/", "src/", "schemas/"))]


def test_python_version_is_supported() -> None:
    requires = metadata.metadata("replayable")["Requires-Python"]
    assert Version(f"{sys.version_info.major}.{sys.version_info.minor}") >= Version("3.11")
    assert requires == ">=3.11"


@needs_checkout
def test_the_integration_extras_and_a_base_install_without_the_sdks() -> None:
    """`replayable[openai]` and `replayable[agents]` bring the SDKs `replayable.integrations` plugs into;
    the base install stays pydantic, jsonschema-rs and jiter."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        base = {Requirement(r).name for r in tomllib.load(f)["project"]["dependencies"]}
    assert base == {"pydantic", "jsonschema-rs", "jiter"}
    extras = _extras()
    assert [r.name for r in extras["openai"]] == ["openai"]
    assert [r.name for r in extras["agents"]] == ["openai-agents"]
    (agents_test,) = [r for r in extras["test"] if r.name == "openai-agents"]
    (agents_extra,) = extras["agents"]
    installed = metadata.version("openai-agents")
    assert agents_test.specifier.contains(installed) and agents_extra.specifier.contains(installed)
    # each new integration's extra brings only its own packages, as ranges the tested pins satisfy
    own = {"litellm": {"litellm"}, "langchain": {"langchain", "langchain-core", "langgraph"},
           "pydantic-ai": {"pydantic-ai-slim"}}
    for extra, names in own.items():
        assert {r.name for r in extras[extra]} == names, extra
        for req in extras[extra]:
            (pin,) = [r for r in extras["test"] if r.name == req.name]
            (spec,) = pin.specifier
            assert spec.operator == "==" and req.specifier.contains(spec.version), (req, pin)


@needs_checkout
def test_constraints_pin_the_whole_environment_as_pyproject_does() -> None:
    """`constraints.txt` (what `make install` and CI install with) pins every package exactly, agrees with
    every exact pin of pyproject.toml's extras, and is what this environment holds."""
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", line
            pins[canonicalize_name(req.name)] = spec.version
    assert len(pins) > 50
    for name, reqs in _extras().items():
        for req in reqs:
            if req.name == "replayable":
                continue
            specs = list(req.specifier)
            if len(specs) == 1 and specs[0].operator == "==":
                got = pins.get(canonicalize_name(req.name))
                assert got == specs[0].version, f"{name}: {req} but constraints.txt says {got}"
            else:  # a user's range: the pinned environment satisfies it
                key = canonicalize_name(req.name)
                assert key not in pins or req.specifier.contains(pins[key]), req
    for name in ("openai", "openai-agents", "pydantic", "jsonschema-rs"):
        assert metadata.version(name) == pins[canonicalize_name(name)], name
