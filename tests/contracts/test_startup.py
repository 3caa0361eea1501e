"""Start-up: the `replayable` command skips pydantic's plugin discovery in its own process,
the library never does. Each check runs in a fresh interpreter with a pydantic plugin installed on its
path (a distribution with a `pydantic` entry point that records every validator built). Structure only:
nothing here is timed (benchmarks/bench_startup.py times it)."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from replayable._cli import startup

ITEM = {"type": "message", "role": "user", "content": "hi"}

PLUGIN = """
import os

class Plugin:
    def new_schema_validator(self, schema, schema_type, schema_type_path, schema_kind, config, plugin_settings):
        with open(os.environ["PLUGIN_LOG"], "a") as f:
            f.write(schema_type_path.name + "\\n")
        return None, None, None

plugin = Plugin()
"""


@pytest.fixture
def plugin_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose interpreters find a pydantic plugin writing to `PLUGIN_LOG`."""
    site = tmp_path / "site"
    (site / "recording_plugin-1.0.dist-info").mkdir(parents=True)
    (site / "recording_plugin.py").write_text(PLUGIN)
    dist = site / "recording_plugin-1.0.dist-info"
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: recording-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[pydantic]\nrecording = recording_plugin:plugin\n")
    env = {k: v for k, v in os.environ.items() if k != startup.ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PLUGIN_LOG"] = str(tmp_path / "plugin.log")
    (tmp_path / "one.jsonl").write_text(json.dumps(ITEM) + "\n")
    return env


def run(code: str, env: dict[str, str]) -> dict[str, object]:
    """Run `code` in a fresh interpreter; its last stdout line is a JSON object it printed."""
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.splitlines()[-1]))


def plugin_calls(env: dict[str, str]) -> list[str]:
    log = Path(env["PLUGIN_LOG"])
    return log.read_text().split() if log.exists() else []


CLI = (
    "import json, sys\n"
    "from replayable._cli import main\n"
    "sys.argv = ['replayable', 'check', {file!r}]\n"
    "code = main()\n"
    "print(json.dumps({{'code': code, 'metadata': 'importlib.metadata' in sys.modules,"
    " 'resources': 'importlib.resources' in sys.modules,"
    " 'env': __import__('os').environ.get('PYDANTIC_DISABLE_PLUGINS')}}))"
)


def test_the_library_keeps_the_apps_pydantic_plugins(plugin_env: dict[str, str]) -> None:
    out = run(
        f"import json, replayable\nok = replayable.check_transcript([{ITEM!r}]).ok\n"
        "import os\nprint(json.dumps({'ok': ok, 'env': os.environ.get('PYDANTIC_DISABLE_PLUGINS')}))",
        plugin_env,
    )
    assert out == {"ok": True, "env": None}
    assert plugin_calls(plugin_env), "the app's pydantic plugin saw no validator built by the library"


def test_the_command_line_skips_plugin_discovery(plugin_env: dict[str, str], tmp_path: Path) -> None:
    out = run(CLI.format(file=str(tmp_path / "one.jsonl")), plugin_env)
    # nor does it load what only other paths need (the schema bundles' reader and its tempfile, shutil)
    assert out == {"code": 0, "metadata": False, "resources": False, "env": "__all__"}
    assert plugin_calls(plugin_env) == []


def test_the_command_line_keeps_plugins_the_user_asks_for(plugin_env: dict[str, str], tmp_path: Path) -> None:
    env = {**plugin_env, startup.ENV: ""}  # pydantic: an empty value disables no plugin
    out = run(CLI.format(file=str(tmp_path / "one.jsonl")), env)
    assert out["code"] == 0
    assert (out["metadata"], out["env"]) == (True, "")
    assert plugin_calls(env)


def test_the_console_script_and_python_m_skip_it_too(plugin_env: dict[str, str], tmp_path: Path) -> None:
    one = str(tmp_path / "one.jsonl")
    exe = Path(sys.executable).with_name("replayable")
    commands = [[sys.executable, "-m", "replayable", "check", one]]
    if exe.exists():
        commands.append([str(exe), "check", one])
    for argv in commands:
        done = subprocess.run(argv, env=plugin_env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert "replay-safe" in done.stdout
    assert plugin_calls(plugin_env) == []


def test_main_with_argv_leaves_the_process_alone(plugin_env: dict[str, str], tmp_path: Path) -> None:
    """`main([...])` called from Python (tests, an embedding app) changes no process setting."""
    code = (
        "import json, os, sys\nfrom replayable._cli import main\n"
        f"code = main(['check', {str(tmp_path / 'one.jsonl')!r}])\n"
        "print(json.dumps({'code': code, 'env': os.environ.get('PYDANTIC_DISABLE_PLUGINS')}))"
    )
    assert run(code, plugin_env) == {"code": 0, "env": None}
    assert plugin_calls(plugin_env)


def test_the_stand_in_matches_pydantics_loader() -> None:
    """Fails loudly when pydantic moves its plugin loader or changes what `__all__` means: the stand-in
    must be what `create_schema_validator` imports, and answer as pydantic's loader does then."""
    from pydantic.plugin import _loader, _schema_validator  # noqa: PLC0415

    assert startup.LOADER == _loader.__name__
    assert "from ._loader import get_plugins" in inspect.getsource(_schema_validator.create_schema_validator)
    assert {"get_plugins", "PYDANTIC_ENTRY_POINT_GROUP", "_plugins", "_loading_plugins"} <= set(vars(_loader))
    assert "PYDANTIC_DISABLE_PLUGINS" in inspect.getsource(_loader.get_plugins)
    code = (
        "import json, os\nos.environ['PYDANTIC_DISABLE_PLUGINS'] = '__all__'\n"
        "from pydantic.plugin._loader import get_plugins\nprint(json.dumps({'plugins': list(get_plugins())}))"
    )
    assert run(code, dict(os.environ)) == {"plugins": []}
