"""Start-up (issues 26, 36): `import replayable` and each first call, each in a fresh interpreter.

    python benchmarks/bench_startup.py               # 31 interleaved rounds
    python benchmarks/bench_startup.py --runs 61
    python benchmarks/bench_startup.py --baseline /tmp/main/src   # the same commands on another tree too

Every round runs each command below once, in a fresh subprocess, in the same order, so a change of
load hits all of them alike; the figures are medians over rounds. "After import" is the median of the
per-round differences against `python -c "import replayable"` timed in the same round; the import ratio
is the median of the per-round ratios against `python -c "import pydantic"`. Wall time (what a user
waits) and CPU time (user + system of the child, less sensitive to other processes on a loaded machine)
are both shown.

Bytecode is cached as for an installed package, even under `PYTHONDONTWRITEBYTECODE`: the children
write and read it under a temporary `PYTHONPYCACHEPREFIX` (a warm-up round fills it first), so source
compilation is never timed and the checkout gets no `__pycache__`.

Commands: a bare interpreter, `import pydantic`, what any pydantic app pays for its first model (one
`BaseModel` subclass defined and validated: `pydantic.main`, `pydantic.fields`, one schema built and
pydantic's plugin discovery), `import replayable`, the console script `replayable check one.jsonl` (one
user message), and the first call of each common entry point after `import replayable`:
`parse_items([item])`, `gate(call, schema)`, `check_transcript([item])`; then the same library check with
`PYDANTIC_DISABLE_PLUGINS=__all__` (what pydantic's plugin discovery costs an app that has none; the CLI
skips that discovery itself, see docs/cli.md, "Start-up and pydantic plugins").

With `--baseline SRC` every command also runs with `PYTHONPATH=SRC` (another checkout's `src`, e.g. from
`git archive main src`) in the same rounds, for a before/after comparison under the same load.

Run on demand: nothing here is a unit test and nothing here asserts a time. Goals: the one-item check at
most `import replayable` + 10 ms (issue 26); `import replayable` nearer `import pydantic` than x3.1-3.3,
with what was deferred not all paid again by the first common call (issue 36, point 7).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable
EXE = Path(PY).with_name("replayable")
ITEM = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": '{"a": 1}', "status": "completed"}
SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}}
ONE_MODEL = "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int\nM(x=1)"


def commands(one: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    """The timed commands by label: (argv, extra environment)."""
    cli = [str(EXE)] if EXE.exists() else [PY, "-m", "replayable"]
    lib = f"import replayable; assert replayable.check_transcript([{ITEM!r}]).ok"
    parse = f"import replayable; assert replayable.parse_items([{ITEM!r}])"
    gate = f"import replayable; assert replayable.gate({CALL!r}, {SCHEMA!r}).ok"
    return {
        "python -c pass": ([PY, "-c", "pass"], {}),
        "import pydantic": ([PY, "-c", "import pydantic"], {}),
        "pydantic: one model, validated": ([PY, "-c", ONE_MODEL], {}),
        "import replayable": ([PY, "-c", "import replayable"], {}),
        "replayable check one.jsonl (CLI)": ([*cli, "check", str(one)], {}),
        "import + parse_items([item])": ([PY, "-c", parse], {}),
        "import + gate(call, schema)": ([PY, "-c", gate], {}),
        "import + check_transcript([item])": ([PY, "-c", lib], {}),
        "  same, PYDANTIC_DISABLE_PLUGINS=__all__": ([PY, "-c", lib], {"PYDANTIC_DISABLE_PLUGINS": "__all__"}),
    }


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=31, help="interleaved rounds (default 31)")
    ap.add_argument("--baseline", metavar="SRC", help="also time every command with PYTHONPATH=SRC")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp, "one.jsonl")
        one.write_text(json.dumps(ITEM) + "\n")
        base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYDANTIC_DISABLE_PLUGINS")}
        base["PYTHONPYCACHEPREFIX"] = str(Path(tmp, "pycache"))
        cmds = {k: (argv, {**base, **extra}) for k, (argv, extra) in commands(one).items()}
        if a.baseline:
            src = str(Path(a.baseline).resolve())
            cmds |= {f"[baseline] {k}": (argv, {**env, "PYTHONPATH": src}) for k, (argv, env) in cmds.items()}
        for argv, env in cmds.values():  # warm-up: bytecode written, files in the page cache
            run(argv, env)
        wall: dict[str, list[float]] = {k: [] for k in cmds}
        cpu: dict[str, list[float]] = {k: [] for k in cmds}
        for _ in range(a.runs):
            for k, (argv, env) in cmds.items():
                w, c = run(argv, env)
                wall[k].append(w)
                cpu[k].append(c)

    def med(xs: list[float]) -> float:
        return statistics.median(xs) * 1e3

    print(f"start-up, fresh interpreters, {a.runs} interleaved rounds (Python {sys.version.split()[0]})")
    print(f"  {'command':44s} {'wall ms':>8s} {'CPU ms':>8s}   after import (wall / CPU ms, paired)")
    for k in cmds:
        ref = "[baseline] import replayable" if k.startswith("[baseline]") else "import replayable"
        extra = ""
        if not k.endswith(("python -c pass", "import pydantic", "one model, validated", "import replayable")):
            dw = [x - y for x, y in zip(wall[k], wall[ref], strict=True)]
            dc = [x - y for x, y in zip(cpu[k], cpu[ref], strict=True)]
            extra = f"   import + {med(dw):5.1f} / {med(dc):5.1f}"
        print(f"  {k:44s} {med(wall[k]):8.1f} {med(cpu[k]):8.1f}{extra}")
    for tag in ("", "[baseline] ") if a.baseline else ("",):
        ref, pyd = f"{tag}import replayable", "import pydantic"
        rw = statistics.median(x / y for x, y in zip(wall[ref], wall[pyd], strict=True))
        rc = statistics.median(x / y for x, y in zip(cpu[ref], cpu[pyd], strict=True))
        one = "pydantic: one model, validated"
        fw = statistics.median(x / y for x, y in zip(wall[ref], wall[one], strict=True))
        fc = statistics.median(x / y for x, y in zip(cpu[ref], cpu[one], strict=True))
        print(f"  -> {tag}`import replayable` is x{rw:.2f} (wall) / x{rc:.2f} (CPU) of `import pydantic`")
        print(f"     and x{fw:.2f} (wall) / x{fc:.2f} (CPU) of a pydantic app's first model")
    print(f"  -> goal (issue 26): the one-item check at most import + 10 ms; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
