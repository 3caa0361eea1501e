"""Find what an `openai` release changed in the unions replayable mirrors, before the suite breaks on it.

    python scripts/drift.py                      # the newest openai from the package index, in a fresh venv
    python scripts/drift.py --sdk-version 3.64.0 # that release, in a fresh venv
    python scripts/drift.py --installed          # the openai installed in this interpreter (CI: the pin)

The SDK side is the JSON Schema pydantic gives each SDK union (`TypeAdapter(...).json_schema()`, computed in the
SDK's own environment by a small subprocess that prints JSON); our side is the bundle of the matching side
(`schemas/dist/<side>.json`, the same document as `replayable.json_schema(side)`). Both are normalised ($refs
resolved within each document, `anyOf` with `null` read as nullable, titles and descriptions ignored) and
flattened into facts at JSON paths: `.output[type=message].content[][type=output_text].text` is a field of the
`output_text` member of the `content` array of the `message` member. A tagged union's members are keyed by their
`type` constant, so the two sides line up without sharing a single name.

An SDK fact our side lacks is a drift, of one of five kinds:

- `member`: a union member (by its `type` const) we have no model for;
- `enum`: a string value the SDK accepts where ours is a closed set without it;
- `field`: a field the SDK declares and ours does not (an untyped extra: any value passes);
- `optional`: a field the SDK may omit and ours requires;
- `nullable`: a field the SDK may set to `null` and ours refuses `null` for.

Below a place ours leaves open (no schema, or an open object: tool definitions are kept verbatim) nothing is
compared, and below a missing member or field only that member or field is reported.

What is known and deliberate is listed in `schemas/drift-baseline.json`: each entry names the facts it covers
(exact keys, `side kind path [value]`), why, and the rows of `schemas/differences.json` it follows from. Any other
drift is printed with the SDK module that declares the union and the exit status is 1; 0 when nothing is new. A
baseline key the SDK no longer produces is reported as stale (exit 1 with `--installed`: the baseline follows the
pin; a warning otherwise).

Test hook: `REPLAYABLE_DRIFT_SDK_SCHEMAS=<file>` reads the SDK schemas from that JSON file (the probe's output,
`{"version": ..., "unions": {name: {"module": ..., "schema": ...}}}`) instead of running the probe, so a test can
plant a change without a network or a second SDK. `--dump-sdk FILE` writes the probe's output.
"""

from __future__ import annotations

import argparse
import json
import keyword
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "schemas" / "dist"
BASELINE = ROOT / "schemas" / "drift-baseline.json"
DIFFERENCES = ROOT / "schemas" / "differences.json"
HOOK = "REPLAYABLE_DRIFT_SDK_SCHEMAS"
KINDS = ("member", "enum", "field", "optional", "nullable")


@dataclass(frozen=True)
class SdkUnion:
    """One SDK union and where our bundle holds its counterpart."""

    name: str  # our name for it: the first word of every fact key
    module: str  # the SDK module that declares it
    attrs: tuple[str, ...]  # the SDK names (several: their Union)
    side: str  # the bundle, `schemas/dist/<side>.json`
    at: str = ""  # the path inside the bundle's root where the union sits ("": the root)


UNIONS: tuple[SdkUnion, ...] = (
    SdkUnion("input", "openai.types.responses.response_input_item_param", ("ResponseInputItemParam",), "input"),
    SdkUnion("output", "openai.types.responses.response_output_item", ("ResponseOutputItem",), "output"),
    SdkUnion("response", "openai.types.responses.response", ("Response",), "response"),
    SdkUnion("stream-event", "openai.types.responses.response_stream_event", ("ResponseStreamEvent",),
           "stream-events"),
    SdkUnion("websocket-client", "openai.types.responses.responses_client_event", ("ResponsesClientEvent",),
           "websocket-events"),
    SdkUnion("tools", "openai.types.responses.tool_param", ("ToolParam",), "request", ".tools[]"),
    SdkUnion("compact-request", "openai.types.responses.response_compact_params", ("ResponseCompactParams",),
           "compact-request"),
    SdkUnion("compact-response", "openai.types.responses.compacted_response", ("CompactedResponse",),
           "compact-response"),
    SdkUnion("agents-event", "openai.types.beta.agent_session_event", ("AgentSessionEvent",), "agents-events"),
    SdkUnion("agents-session", "openai.types.beta.agent_session", ("AgentSession",), "agents-session"),
    SdkUnion("agents-item", "openai.types.beta.agent_session_item", ("AgentSessionItem",), "agents-items"),
    SdkUnion("agents-input", "openai.types.beta.agent_session_input_param", ("AgentSessionInputParam",),
           "agents-input"),
    SdkUnion("agents-required-action", "openai.types.beta.agent_session", ("RequiredAction",),
           "agents-required-actions"),
    SdkUnion("agents-create", "openai.types.beta.agents.session_create_params",
           ("SessionCreateParamsNonStreaming", "SessionCreateParamsStreaming"), "agents-session-create"),
    SdkUnion("agents-update", "openai.types.beta.agents.session_update_params", ("SessionUpdateParams",),
           "agents-session-update"),
)  # fmt: skip

# Run by the SDK's interpreter (a fresh venv, or this one): argv[1] is the JSON list of [name, module, attrs];
# prints {"version": ..., "unions": {name: {"module": ..., "schema": ... | "error": ...}}}.
PROBE = r"""
import importlib, json, sys, typing
import openai
from pydantic import TypeAdapter
out = {}
for name, module, attrs in json.loads(sys.argv[1]):
    try:
        mod = importlib.import_module(module)
        types = [getattr(mod, a) for a in attrs]
        tp = types[0] if len(types) == 1 else typing.Union[tuple(types)]
        out[name] = {"module": module, "schema": TypeAdapter(tp).json_schema()}
    except Exception as exc:  # a union the SDK no longer has is a drift too
        out[name] = {"module": module, "error": f"{type(exc).__name__}: {exc}"}
json.dump({"version": openai.__version__, "unions": out}, sys.stdout)
"""


# ------------------------------------------------------------------ the SDK side


def probe(python: str) -> dict[str, Any]:
    """The SDK's schemas, computed by `python` (which has the SDK to inspect)."""
    spec = json.dumps([[u.name, u.module, list(u.attrs)] for u in UNIONS])
    res = subprocess.run([python, "-c", PROBE, spec], capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"drift: the SDK probe failed (exit {res.returncode}):\n{res.stderr[-4000:]}")
    out: dict[str, Any] = json.loads(res.stdout)
    return out


def fresh_sdk(version: str | None, timeout: float) -> dict[str, Any]:
    """Install `openai` (`version`, or the newest) into a throw-away venv and probe it there."""
    with tempfile.TemporaryDirectory(prefix="replayable-drift-") as tmp:
        venv = Path(tmp) / "venv"
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=timeout)
        python = str(venv / ("Scripts" if os.name == "nt" else "bin") / "python")
        requirement = f"openai=={version}" if version else "openai"
        installer = _installer(python, requirement)
        try:
            res = subprocess.run(installer, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise SystemExit(f"drift: installing {requirement} took longer than {timeout:.0f} s") from None
        if res.returncode != 0:
            raise SystemExit(f"drift: could not install {requirement}:\n{(res.stdout + res.stderr)[-4000:]}")
        print(f"drift: installed {requirement} in {time.monotonic() - started:.1f} s", file=sys.stderr)
        return probe(python)


def _installer(python: str, requirement: str) -> list[str]:
    """`uv pip install` when uv is on PATH (fast), else this interpreter's pip targeting the venv."""
    from shutil import which

    uv = which("uv")
    if uv:
        return [uv, "pip", "install", "--quiet", "--python", python, requirement]
    return [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--disable-pip-version-check",
            requirement]  # fmt: skip


def load_sdk(args: argparse.Namespace) -> dict[str, Any]:
    hooked = os.environ.get(HOOK)
    if hooked:
        data: dict[str, Any] = json.loads(Path(hooked).read_text(encoding="utf-8"))
        return data
    if args.installed:
        return probe(sys.executable)
    return fresh_sdk(args.sdk_version, args.timeout)


# ------------------------------------------------------------------ normalising and flattening


class Facts:
    """What one side declares at each JSON path (see the module docstring for the path syntax)."""

    def __init__(self) -> None:
        self.members: set[tuple[str, str]] = set()  # (path of the union, tag)
        self.fields: set[str] = set()  # path of the field
        self.optional: set[str] = set()  # a field that may be absent
        self.nullable: set[str] = set()  # a place that may be null
        self.enums: dict[str, set[str]] = {}  # a closed set of strings at a path
        self.open_strings: set[str] = set()  # a string place with no closed set
        self.open: set[str] = set()  # anything goes below this path (no schema, or an object without properties)
        self.places: set[str] = set()  # every path with a schema


#: Our bundles prefix OpenAI's own types (`openai:web_search_call`); OpenAI sends them un-prefixed and
#: `provider="openai"` reads them so. Tags are compared un-prefixed.
NATIVE_PREFIX = "openai:"


def _tag(schema: dict[str, Any]) -> str | None:
    """The `type` constant of an object branch of a tagged union (its own, not its parts')."""
    prop = (schema.get("properties") or {}).get("type")
    if not isinstance(prop, dict):
        return None
    value = prop.get("const")
    enum = prop.get("enum")
    if value is None and isinstance(enum, list) and len(enum) == 1:
        value = enum[0]
    if not isinstance(value, str):
        return None
    return value.removeprefix(NATIVE_PREFIX)


class Flattener:
    """Walks one JSON Schema document into `Facts`: `$ref`s are resolved within the document (a `$ref` already
    being walked on the current path stops the walk: recursive types), `allOf` / `if`-`then`-`else` parts are
    walked at the same place, the branches of `anyOf` / `oneOf` too (an object branch with a `type` const is a
    member, keyed by it; a `null` branch makes the place nullable)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.doc = document
        self.facts = Facts()

    def resolve(self, ref: str) -> dict[str, Any]:
        if not ref.startswith("#"):
            raise ValueError(f"external $ref {ref!r}: bundles and SDK schemas are self-contained")
        node: Any = self.doc
        for part in ref[1:].split("/")[1:]:
            node = node[part.replace("~1", "/").replace("~0", "~")]
        if not isinstance(node, dict):
            raise ValueError(f"$ref {ref!r} is not a schema")
        return node

    def tag(self, schema: Any, depth: int = 0) -> str | None:
        """The member tag of a branch: its `type` const, looked up through `$ref` and `allOf`."""
        if not isinstance(schema, dict) or depth > 8:
            return None
        found = _tag(schema)
        if found is None and "$ref" in schema:
            found = self.tag(self.resolve(schema["$ref"]), depth + 1)
        for part in schema.get("allOf", []) if found is None else ():
            found = found or self.tag(part, depth + 1)
        return found

    def walk(self, schema: Any, path: str, stack: tuple[str, ...] = ()) -> None:
        f = self.facts
        if schema is True or schema == {}:
            f.open.add(path)
            return
        if not isinstance(schema, dict):
            return
        own = _tag(schema)
        if own is not None and not path.endswith(f"[type={own}]"):
            f.places.add(path)  # a tagged object outside a union: keyed by its tag all the same
            f.members.add((path, own))
            path = f"{path}[type={own}]"
        f.places.add(path)
        if "$ref" in schema:
            ref = schema["$ref"]
            if ref not in stack:
                self.walk(self.resolve(ref), path, (*stack, ref))
        for key in ("allOf",):
            for part in schema.get(key, []):
                self.walk(part, path, stack)
        for key in ("then", "else"):
            if key in schema:
                self.walk(schema[key], path, stack)
        for key in ("anyOf", "oneOf"):
            for branch in schema.get(key, []):
                target = self.resolve(branch["$ref"]) if isinstance(branch, dict) and "$ref" in branch else branch
                if isinstance(target, dict) and target.get("type") == "null":
                    f.nullable.add(path)
                    continue
                tag = self.tag(target)
                if tag is not None:
                    f.members.add((path, tag))
                    self.walk(branch, f"{path}[type={tag}]", stack)
                else:
                    self.walk(branch, path, stack)
        kinds = schema.get("type")
        kinds = set(kinds) if isinstance(kinds, list) else {kinds} if isinstance(kinds, str) else set()
        if "null" in kinds or schema.get("const", 0) is None or None in (schema.get("enum") or ()):
            f.nullable.add(path)
        values = [schema["const"]] if "const" in schema else schema.get("enum")
        if isinstance(values, list):
            f.enums.setdefault(path, set()).update(v for v in values if isinstance(v, str))
        elif "string" in kinds:
            f.open_strings.add(path)
        props = schema.get("properties")
        if isinstance(props, dict):
            required = set(schema.get("required", ()))
            for name, sub in props.items():
                if name.endswith("_") and keyword.iskeyword(name[:-1]):
                    name = name[:-1]  # the SDK's `async_` (a TypedDict key; `async` on the wire, PropertyInfo alias)
                here = f"{path}.{name}"
                f.fields.add(here)
                if name not in required:
                    f.optional.add(here)
                if name == "type" and _tag(schema) is not None:
                    continue  # the member's tag: its value is the member key
                self.walk(sub, here, stack)
        if schema.get("additionalProperties", True) is True and ("object" in kinds or isinstance(props, dict)):
            if set(props or ()) <= {"type"}:
                f.open.add(path)  # an object kept verbatim (tool definitions): any field passes
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            self.walk(extra, f"{path}{{}}", stack)
        if "items" in schema:
            self.walk(schema["items"], f"{path}[]", stack)
        elif "array" in kinds and "prefixItems" not in schema:
            f.open.add(f"{path}[]")
        for item in schema.get("prefixItems", []):
            self.walk(item, f"{path}[]", stack)
        if not kinds and not any(
            k in schema for k in ("$ref", "allOf", "anyOf", "oneOf", "then", "else", "const", "enum", "properties")
        ):
            f.open.add(path)  # a schema with no constraint on the value's kind (`{"description": ...}`)


def untag(facts: Facts, places: set[str]) -> Facts:
    """`facts` with the members of the unions at `places` merged into their place (`P[type=x].f` -> `P.f`):
    where ours has one object for what the SDK splits by `type`, the SDK's members are compared field by field
    with that object."""

    def fold(path: str) -> str:
        for place in places:
            head = f"{place}[type="
            while path.startswith(head):
                end = path.index("]", len(head))
                path = place + path[end + 1 :]
        return path

    out = Facts()
    out.members = {(fold(p), t) for p, t in facts.members if p not in places}
    for name in ("fields", "optional", "nullable", "open_strings", "open", "places"):
        setattr(out, name, {fold(p) for p in getattr(facts, name)})
    for p, v in facts.enums.items():
        out.enums.setdefault(fold(p), set()).update(v)
    return out


def flatten(document: dict[str, Any], at: str = "") -> Facts:
    """The facts of `document`, with paths re-rooted at `at` (facts outside it dropped)."""
    flat = Flattener(document)
    flat.walk(document, "")
    if not at:
        return flat.facts
    src, out = flat.facts, Facts()

    def re(p: str) -> str | None:
        return p[len(at):] if p.startswith(at) else None  # fmt: skip

    out.members = {(q, t) for p, t in src.members if (q := re(p)) is not None}
    for name in ("fields", "optional", "nullable", "open_strings", "open", "places"):
        setattr(out, name, {q for p in getattr(src, name) if (q := re(p)) is not None})
    out.enums = {q: v for p, v in src.enums.items() if (q := re(p)) is not None}
    return out


# ------------------------------------------------------------------ comparing


@dataclass(frozen=True)
class Drift:
    union: str
    kind: str
    path: str
    value: str = ""

    @property
    def key(self) -> str:
        return f"{self.union} {self.kind} {self.path or '.'}" + (f" {self.value}" if self.value else "")


def _under_open(path: str, ours: Facts) -> bool:
    """`path` lies at or below a place ours leaves open."""
    return any(path == o or path.startswith(o) and path[len(o)] in ".[{" for o in ours.open)


def _parent(path: str) -> str:
    """The place holding the field or member at `path` (`.a.b` -> `.a`, `.a[type=x]` -> `.a`)."""
    cut = max(path.rfind("."), path.rfind("["), path.rfind("{"))
    return path[:cut] if cut > 0 else ""


def compare(union: str, sdk: Facts, ours: Facts) -> list[Drift]:
    """The SDK facts ours lacks, reported once at the top-most place (see the module docstring)."""
    out: list[Drift] = []

    def known(place: str) -> bool:
        return place in ours.places and not _under_open(place, ours)

    unions = {p for p, _ in ours.members}
    for path, tag in sorted(sdk.members):
        if known(path) and (path, tag) not in ours.members and (path in unions or path == ""):
            out.append(Drift(union, "member", path, tag))
    for path in sorted(sdk.fields):
        parent = _parent(path)
        if known(parent) and path not in ours.fields and parent not in ours.open:
            out.append(Drift(union, "field", path))
    for path in sorted(sdk.optional):
        if path in ours.fields and path not in ours.optional and known(_parent(path)):
            out.append(Drift(union, "optional", path))
    for path in sorted(sdk.nullable):
        if known(path) and path not in ours.nullable:
            out.append(Drift(union, "nullable", path))
    for path, values in sorted(sdk.enums.items()):
        if not known(path) or path in ours.open_strings or path not in ours.enums:
            continue
        for value in sorted(values - ours.enums[path]):
            out.append(Drift(union, "enum", path, value))
    return out


def our_bundle(side: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((DIST / f"{side}.json").read_text(encoding="utf-8"))
    return document


def find_drift(sdk: dict[str, Any]) -> tuple[list[Drift], dict[str, str]]:
    """Every drift of the SDK schemas `sdk` (the probe's output) against our bundles, and each union's module.
    A union the probe could not load is one `member` drift at its root (value `<gone>`)."""
    drifts: list[Drift] = []
    modules: dict[str, str] = {}
    for u in UNIONS:
        entry = sdk["unions"].get(u.name)
        modules[u.name] = u.module
        if entry is None or "error" in entry:
            drifts.append(Drift(u.name, "member", "", "<gone>"))
            continue
        sdk_facts, ours = flatten(entry["schema"]), flatten(our_bundle(u.side), u.at)
        ours_unions = {p for p, _ in ours.members}
        untagged = {p for p, _ in sdk_facts.members if p and p not in ours_unions and p in ours.places}
        drifts += compare(u.name, untag(sdk_facts, untagged) if untagged else sdk_facts, ours)
    return drifts, modules


# ------------------------------------------------------------------ the baseline


def load_baseline(path: Path = BASELINE) -> dict[str, dict[str, Any]]:
    """key -> its baseline entry. Raises SystemExit for a malformed baseline (a key twice, a row of
    differences.json that does not exist, an entry without a reason)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = {row["id"] for row in json.loads(DIFFERENCES.read_text(encoding="utf-8"))}
    out: dict[str, dict[str, Any]] = {}
    problems = []
    for i, entry in enumerate(data["entries"]):
        if not str(entry.get("reason", "")).strip():
            problems.append(f"entry {i} ({entry.get('id')}) has no reason")
        for row in entry.get("differences", []):
            if row not in rows:
                problems.append(f"entry {i} ({entry.get('id')}) names {row!r}, not a row of differences.json")
        for key in entry["keys"]:
            if key in out:
                problems.append(f"{key!r} is listed twice ({out[key]['id']}, {entry.get('id')})")
            out[key] = entry
    if problems:
        raise SystemExit("drift: malformed baseline:\n  " + "\n  ".join(problems))
    return out


def report(drifts: list[Drift], modules: dict[str, str], baseline: dict[str, dict[str, Any]]) -> Iterator[str]:
    by_union: dict[str, list[Drift]] = {}
    for d in drifts:
        if d.key not in baseline:
            by_union.setdefault(d.union, []).append(d)
    for union, found in by_union.items():
        yield f"{union} ({modules[union]}):"
        for d in found:
            yield f"  {d.kind:<8} {d.path or '.'}" + (f"  {d.value}" if d.value else "")


def pinned_version() -> str | None:
    """The `openai==X` the test extra of pyproject.toml pins (the SDK the suite and the baseline follow)."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for requirement in project["optional-dependencies"]["test"]:
        found = re.fullmatch(r"openai==([^\s;]+)", requirement.strip())
        if found:
            return found.group(1)
    return None


def _version_tuple(version: str) -> tuple[int, ...]:
    import re

    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--installed", action="store_true", help="the openai installed in this interpreter")
    which.add_argument("--sdk-version", metavar="X", help="this openai release, in a fresh venv")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds the install may take (default 300)")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline file (default %(default)s)")
    parser.add_argument("--dump-sdk", type=Path, metavar="FILE", help="also write the probe's output to FILE")
    parser.add_argument("--keys", action="store_true", help="print every drift key, baseline included, and exit")
    args = parser.parse_args(argv)

    sdk = load_sdk(args)
    if args.dump_sdk:
        args.dump_sdk.write_text(json.dumps(sdk, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    started = time.monotonic()
    drifts, modules = find_drift(sdk)
    elapsed = time.monotonic() - started
    if args.keys:
        print("\n".join(sorted({d.key for d in drifts})))
        return 0
    baseline = load_baseline(args.baseline)
    new = list(report(drifts, modules, baseline))
    found = {d.key for d in drifts}
    stale = sorted(k for k in baseline if k not in found)
    pin = pinned_version()
    if pin is not None and sdk["version"] != pin:
        newer = _version_tuple(sdk["version"]) > _version_tuple(pin)
        print(f"drift: openai {sdk['version']} is {'newer' if newer else 'older'} than the pin (openai=={pin} in "
              "pyproject.toml's test extra); what it changed is below")  # fmt: skip
    print(f"drift: openai {sdk['version']} against replayable's bundles: {len(found)} differences, "
          f"{len(found) - len({d.key for d in drifts if d.key not in baseline})} in the baseline, compared in "
          f"{elapsed:.1f} s")  # fmt: skip
    status = 0
    if args.installed and pin is not None and sdk["version"] != pin:
        print(f"drift: the installed openai {sdk['version']} is not the pin {pin}: install the test extra")
        status = 1
    if new:
        print("drift: NEW in this SDK (not in schemas/drift-baseline.json):")
        print("\n".join(new))
        status = 1
    if stale:
        print(f"drift: {len(stale)} baseline keys this SDK no longer produces (remove them from the baseline):")
        print("\n".join(f"  {k}" for k in stale))
        if args.installed:
            status = 1
    if status == 0:
        print("drift: nothing new")
    return status


if __name__ == "__main__":
    sys.exit(main())
