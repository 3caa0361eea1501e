"""`replayable check --format sarif|github`: reports for code scanning and CI logs.

Both render the records of `replayable._render` (one per input, each with its `findings`):

- `sarif`: one SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format,
  https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html) with one run whose driver is
  `replayable` and lists every rule a result refers to (`id` = the finding code). Each finding is one
  result: `ruleId` the code, `level` `error` (or `note`), the message, and the file as its location
  (`artifactLocation.uri`, a relative URI reference for a relative path, a `file://` URI for an
  absolute one; standard input has no location) with its `region` (`startLine`, `startColumn`, in
  Unicode code points: the run's `columnKind`) where the item, event or field starts. The item or event
  index and JSON Pointer are a logical location (`item 3/arguments`) and in `properties`. An unreadable
  input is a result of the rule `unreadable_input`, and makes the invocation's `executionSuccessful` false.
- `github`: GitHub Actions workflow commands, one line per finding:
  `::error file=FILE,line=LINE,col=COLUMN,title=replayable CODE::MESSAGE` (`::notice` for a note; `line`
  and `col` where the finding's item, event or field starts in the file, when known; the path as given,
  without a leading `./`, which GitHub would not place on a pull request). Values are escaped as
  GitHub's toolkit does (`@actions/core`, `toCommandValue`/`escapeData`/`escapeProperty`): `%`, CR and
  LF in the message; also `:` and `,` in a property. An unreadable input is an `::error` of its own.
  Before that, every line of a value is made safe to print (`replayable._names.shown`: control
  characters such as a terminal escape, format characters and lone surrogates become Python escapes),
  as the text report does: a quoted input never reaches the CI log as raw escapes. The SARIF messages
  and logical locations are made printable alike (`properties` keep the values as they are).
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import quote

from replayable._names import shown

__all__ = [
    "SARIF_SCHEMA",
    "ci_report",
    "escape_data",
    "escape_property",
    "github_lines",
    "package_version",
    "sarif_log",
]

#: The `$schema` of the SARIF logs written (the OASIS 2.1.0 schema, as published).
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_INFO_URI = "https://www.openresponses.org"
UNREADABLE = "unreadable_input"


def package_version() -> str:
    """The installed distribution's version (`importlib.metadata`), or "unknown" when not installed; read
    only when asked for (reading the package metadata is a noticeable part of a one-file `check`)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("replayable")
    except PackageNotFoundError:
        return "unknown"


def _uri(file: str | None) -> str | None:
    """The SARIF `artifactLocation.uri` of a file name (None for standard input, or no file)."""
    if file is None or file in ("<stdin>", "-"):
        return None
    text = file.replace(os.sep, "/")
    if os.path.isabs(file):
        return "file://" + quote(text, safe="/")
    return quote(text.removeprefix("./"), safe="/")


def _where(f: dict[str, Any]) -> str:
    at = f["where"] if f["index"] is None else f"{f['where']} {f['index']}"
    return at + (f["path"] or "")


def _describe(code: str) -> str:
    return code.replace("_", " ").capitalize()


def sarif_log(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One SARIF 2.1.0 log (a dict) for the records of `replayable._render`, in their order."""
    rules: dict[str, int] = {}
    rule_list: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []

    def rule(code: str) -> int:
        if code not in rules:
            rules[code] = len(rule_list)
            rule_list.append(
                {
                    "id": code,
                    "name": "".join(w.capitalize() for w in code.split("_")),
                    "shortDescription": {"text": _describe(code)},
                    "defaultConfiguration": {"level": "error"},
                }
            )
        return rules[code]

    unreadable = False
    for record in records:
        file = _file(record)
        uri = _uri(file)
        physical = [{"physicalLocation": {"artifactLocation": {"uri": uri}}}] if uri is not None else []
        if record.get("error"):
            unreadable = True
            results.append(
                {
                    "ruleId": UNREADABLE,
                    "ruleIndex": rule(UNREADABLE),
                    "level": "error",
                    "message": {"text": _printable(str(record["error"]))},
                    "locations": physical,
                    "properties": {"file": file},
                }
            )
            continue
        for f in record.get("findings", []):
            location: dict[str, Any] = {}
            if physical:
                location["physicalLocation"] = dict(physical[0]["physicalLocation"])
                if f.get("line") is not None:
                    location["physicalLocation"]["region"] = {"startLine": f["line"], "startColumn": f["column"]}
            location["logicalLocations"] = [{"fullyQualifiedName": shown(_where(f)), "kind": "element"}]
            results.append(
                {
                    "ruleId": f["code"],
                    "ruleIndex": rule(f["code"]),
                    "level": "error" if f["severity"] == "error" else "note",
                    "message": {"text": _printable(f["message"])},
                    "locations": [location],
                    "properties": {"file": file, "where": f["where"], "index": f["index"], "path": f["path"]},
                }
            )
    driver = {"name": "replayable", "version": package_version(), "informationUri": _INFO_URI, "rules": rule_list}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "unicodeCodePoints",
                "invocations": [{"executionSuccessful": not unreadable}],
                "results": results,
            }
        ],
    }


def escape_data(text: str) -> str:
    """A workflow command's message as GitHub reads it: `%`, CR and LF escaped (`%25`, `%0D`, `%0A`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: `escape_data`, and `:` and `,` (`%3A`, `%2C`)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _file(record: dict[str, Any]) -> str | None:
    file = record.get("file")
    return file if isinstance(file, str) else None


def _github_path(file: str) -> str:
    """The path as given, without the leading `./` (GitHub places an annotation on a pull request's diff
    only by the path relative to the repository, which `./x` never matches)."""
    while file.startswith("./"):
        file = file[2:]
    return file


def _printable(text: str) -> str:
    """`text` with every line made safe to print (`shown`); the line breaks between them stay."""
    return "\n".join(shown(line) for line in text.split("\n"))


def _command(
    level: str, file: str | None, title: str, message: str, line: int | None = None, column: int | None = None
) -> str:
    props = (
        [] if file is None or file in ("<stdin>", "-") else [f"file={escape_property(_printable(_github_path(file)))}"]
    )
    if props and line is not None:
        props += [f"line={line}", f"col={column}"]
    props.append(f"title={escape_property(_printable(title))}")
    return f"::{level} {','.join(props)}::{escape_data(_printable(message))}"


def github_lines(records: list[dict[str, Any]]) -> list[str]:
    """GitHub Actions workflow commands (`::error`/`::notice`), one per finding or unreadable input."""
    lines = []
    for record in records:
        file = _file(record)
        if record.get("error"):
            lines.append(_command("error", file, f"replayable {UNREADABLE}", str(record["error"])))
            continue
        for f in record.get("findings", []):
            level = "error" if f["severity"] == "error" else "notice"
            message = f"{_where(f)}: {f['message']}"
            lines.append(_command(level, file, f"replayable {f['code']}", message, f.get("line"), f.get("column")))
    return lines


def ci_report(records: list[dict[str, Any]], fmt: str) -> str:
    """The records as one SARIF log (`fmt` `sarif`, JSON text) or as workflow commands (`github`; an
    input with nothing to report writes no line)."""
    if fmt == "sarif":
        return json.dumps(sarif_log(records), indent=2)
    return "\n".join(github_lines(records))
