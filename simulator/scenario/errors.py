"""What a scenario file that breaks the schema is told: jsonschema's errors in one line each,
in the scenario's words (a step's kind, a label's form, did-you-mean), at the line of YAML they
point to."""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from ..hosts import HOSTS
from .model import DURATION_FORMS

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
OUTCOME = re.compile(r"ok|fail|hang|garbage|empty|meet|exit [0-9]+|slow \d+(\.\d+)?(ms|s)")


LABEL_FORM = "a letter, then letters, digits, _, . or -"
DURATION_KEYS = (
    "after",
    "temporary_ttl",
    "window",
    "max_duration",
    "duration",
    "max_session_duration",
)


def did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}? " if close else ""


def _branch_errors(error: Any) -> list[Any] | None:
    """For a oneOf over object shapes: the errors of the shape whose required keys the value
    has (the one the author meant), or None when no shape fits."""
    branches = error.schema.get("oneOf", [])
    defs = schema().get("$defs", {})
    for i, branch in enumerate(branches):
        ref = branch.get("$ref", "")
        target = defs.get(ref.rsplit("/", 1)[-1], branch) if ref else branch
        required = target.get("required", [])
        if required and all(k in error.instance for k in required):
            return [e for e in error.context if e.relative_schema_path[0] == i]
    return None


@cache
def schema() -> dict[str, Any]:
    """The scenario JSON Schema shipped with the package, its host names those of the registry
    (``hosts.HOSTS``): the file lists them for editors, the registry is what a run knows."""
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    names = list(HOSTS)
    loaded["properties"]["tool"]["enum"] = names
    loaded["properties"]["hosts"]["propertyNames"]["enum"] = names
    return loaded


def exact_line_of(doc: Any, path: list[str | int]) -> int | None:
    """1-based line of the node at ``path``, None when some key of it is not there (where
    ``line_of`` would give the line of the deepest key found)."""
    node, line = doc, None
    for key in path:
        lc: Any = getattr(node, "lc", None)
        try:
            pos = lc.key(key) if isinstance(key, str) else lc.item(key)
            node = node[key]
        except (KeyError, IndexError, TypeError, AttributeError):
            return None
        line = pos[0]
    return None if line is None else line + 1


def line_of(doc: Any, path: list[str | int]) -> int:
    """1-based line of the node at ``path`` in a ruamel round-trip document (best effort)."""
    line = 0
    node = doc
    for key in path:
        lc = getattr(node, "lc", None)
        try:
            if lc is not None:
                pos = lc.key(key) if isinstance(key, str) else lc.item(key)
                line = pos[0]
            node = node[key]
        except (KeyError, IndexError, TypeError, AttributeError):
            break
    else:
        lc = getattr(node, "lc", None)
        if lc is not None and not path:
            line = lc.line
    return line + 1


def describe(error: Any) -> str:  # jsonschema's ValidationError
    """A short, fix-naming message for one jsonschema error."""
    where = "/".join(str(p) for p in error.absolute_path)
    prefix = f"{where}: " if where else ""
    if error.validator == "additionalProperties":
        return _unknown_keys(error, prefix)
    last = str(error.absolute_path[-1]) if error.absolute_path else ""
    if last in DURATION_KEYS and error.validator in ("oneOf", "minimum", "type", "pattern"):
        return f"{prefix}{error.instance!r} is not a duration: use {DURATION_FORMS}"
    if last == "label" and error.validator == "pattern" and isinstance(error.instance, str):
        if error.instance.isdigit():
            return f"{prefix}{error.instance!r} is a number; a label starts with a letter"
        return f"{prefix}{error.instance!r} is not a label: {LABEL_FORM}"
    if last == "resume" and error.validator == "const":
        return f"{prefix}resume is true (the user quits and resumes this session)"
    if error.validator == "enum" and isinstance(error.instance, str):
        choices = [str(c) for c in error.validator_value]
        hint = did_you_mean(error.instance, choices)
        shown = f" ({hint.strip()})" if hint else ""
        return f"{prefix}{error.instance!r} is not one of {', '.join(choices)}{shown}"
    if error.validator == "propertyNames" and isinstance(error.instance, str):
        choices = [str(c) for c in error.schema.get("propertyNames", {}).get("enum", [])]
        return f"{prefix}unknown host {error.instance!r} ({did_you_mean(error.instance, choices)}hosts: {', '.join(choices)})"
    if error.validator == "oneOf" and not error.absolute_path:
        both = isinstance(error.instance, dict) and {"turns", "sessions"} <= set(error.instance)
        return (
            "give either 'turns' (one session) or 'sessions' (several at once), not both"
            if both
            else "a scenario needs 'turns' (one session) or 'sessions' (several at once)"
        )
    in_turns = "turns" in [str(p) for p in error.absolute_path][-2:-1]
    if error.validator == "oneOf" and in_turns and isinstance(error.instance, dict):
        return _describe_step(error, prefix)
    path = [str(p) for p in error.absolute_path]
    a_file = path[:1] == ["files"] and len(path) >= 2 and path[-1] != "git"
    if a_file and error.validator == "oneOf":
        deleted = ", or null to delete it" if "commits" in path else ""
        return (
            f"{prefix}a file is its text, or {{from: PATH}} (a file or folder beside the"
            f" scenario){deleted}, or either as {{text: TEXT}} or {{from: PATH}} with a mode"
        )
    if path[:1] == ["bridge"] and len(path) >= 2 and path[1] != "temporary_ttl":
        plan = error.instance if isinstance(error.instance, list) else [error.instance]
        bad = next(
            (o for o in plan if not (isinstance(o, str) and OUTCOME.fullmatch(o))), error.instance
        )
        return f"{prefix}unknown bridge outcome {bad!r} (ok, fail, exit N, hang, slow 2s, garbage, empty, meet)"
    return f"{prefix}{error.message}"


def _unknown_keys(error: Any, prefix: str) -> str:
    """An object with keys its schema does not allow: which, and the keys it does."""
    allowed = sorted(error.schema.get("properties", {}))
    extra = sorted(set(error.instance) - set(allowed))
    if not allowed and error.schema.get("patternProperties"):
        return f'{prefix}keys are turn numbers such as "2", or step labels; got {", ".join(map(repr, extra))}'
    hint = did_you_mean(str(extra[0]), allowed) if extra else ""
    return (
        f"{prefix}unknown key {', '.join(map(repr, extra))} ({hint}allowed: {', '.join(allowed)})"
    )


def reported(error: Any) -> Any:
    """The error ``describe`` speaks of, whose line a message names: for a step of ``turns``
    that fits none of the step shapes, the error of the shape it meant."""
    in_turns = "turns" in [str(p) for p in error.absolute_path][-2:-1]
    if not (error.validator == "oneOf" and in_turns and isinstance(error.instance, dict)):
        return error
    meant = _branch_errors(error)
    if not meant:
        return error
    first = min(meant, key=lambda e: len(list(e.absolute_path)))
    deepest = max(meant, key=lambda e: len(list(e.absolute_path)))
    return reported(deepest if deepest.validator != "required" else first)


def _describe_step(error: Any, prefix: str) -> str:
    """A step of ``turns`` that fits none of the step shapes: the error of the one it meant,
    else its unknown keys, else what a step needs."""
    if reported(error) is not error:
        return describe(reported(error))
    allowed = sorted(
        {
            k
            for b in ("turn", "new_session", "compact", "raw_event", "resume")
            for k in schema()["$defs"].get(b, {}).get("properties", {})
        }
    )
    unknown = sorted(str(k) for k in error.instance if k not in allowed)
    if unknown:
        hint = did_you_mean(unknown[0], allowed)
        return f"{prefix}unknown key {', '.join(map(repr, unknown))} ({hint}a turn has 'user', 'new_session', 'compact' or 'event')"
    if error.instance.get("compact", "auto") not in ("auto", "manual"):
        return f"{prefix}compact is auto or manual, got {error.instance['compact']!r}"
    return (
        f"{prefix}a turn needs 'user' (a turn), 'new_session' (/new), 'compact' (auto or manual)"
        " or 'event' (a raw event),"
        f" with only the keys those allow; got keys {', '.join(sorted(map(str, error.instance)))}"
    )


def error_path(error: Any) -> list[str | int]:
    """Where the error is; for an unknown key, the key itself, so its line is reported."""
    path: list[str | int] = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra:
            path.append(extra[0])
    return path
