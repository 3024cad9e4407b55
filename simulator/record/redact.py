"""Secrets out of a recording: by a variable's name, and by the shape of a value anywhere.

One set of rules for every place a recording is written or shared: the tap (``tap.sh`` redacts
a host variable by its name as it logs it, with the words of ``SECRET_NAMES``, which the tests
hold equal to its case pattern), ``record stop`` (``scrub``: every finished run's files, by
name and by shape) and ``record export`` (every text of the scenario, by shape).

A shape is what a credential looks like wherever it is (a prompt, a command line, a tool's
result, a hook's output): provider keys and tokens by their documented prefixes (Anthropic,
OpenAI, GitHub, GitLab, Slack, Stripe, Google, Hugging Face, npm, PyPI, SendGrid, AWS, ...),
JSON web tokens, the credential of an ``Authorization: Bearer``/``Basic`` header, PEM private
key blocks, webhook secrets; and a value in a secret's place: a URL's password, ``curl -u
user:PASS``, ``--password``, ``mysql -pPASS``, ``NAME=value`` with a secret name. A match
becomes ``<redacted>``, which holds no quote or backslash: a JSON text stays JSON. It is best
effort: a secret of no known shape in no known place is not seen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

REDACTED = "<redacted>"
# Words that make a variable's name secret-looking (upper case; a name is compared upper-cased).
SECRET_NAMES = (
    "KEY",
    "TOKEN",
    "SECRET",
    "PASS",
    "PWD",
    "CREDENTIAL",
    "AUTH",
    "COOKIE",
    "PRIVATE",
    "PEM",
    "BEARER",
    "SIGN",
)

# A value's characters stop at a quote, a backslash or a space, so a JSON string's escapes and
# a shell word's quotes stay outside the match.
_TOKEN = r"[A-Za-z0-9_\-]"
_VALUE = r"[^\s'\"\\;&|<>()`]"
_SHAPES = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:(?!-----END).)*-----END [A-Z0-9 ]*PRIVATE KEY-----"
    # Provider keys and tokens, by their documented prefixes (and lengths, where a prefix
    # alone is an ordinary word: hf_hub_download, npm_config_registry).
    rf"|\b(?:sk-ant-|sk-|gh[pousr]_|github_pat_|xox[abposr]-|xapp-|glpat-|glptt-|gldt-"
    rf"|[sr]k_(?:live|test)_|pk_live_|dop_v1_|shp(?:at|ca|pa|ss)_|sq0(?:atp|csp)-|ya29\.)"
    rf"{_TOKEN}{{8,}}"
    r"|\bhf_[A-Za-z0-9]{30,}\b"
    r"|\bnpm_[A-Za-z0-9]{36}\b"
    r"|\bpypi-AgE[A-Za-z0-9_\-]{40,}"
    r"|\bAIza[0-9A-Za-z_\-]{35}"
    r"|\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"
    rf"|\beyJ{_TOKEN}+\.eyJ{_TOKEN}+(?:\.{_TOKEN}*)?"
    r"|(?<=[Bb]earer )[A-Za-z0-9._~+/=\-]{8,}"
    r"|(?<=[Bb]asic )[A-Za-z0-9+/=]{8,}"
    # A webhook's secret path (Slack, Discord).
    r"|(?<=hooks\.slack\.com/services/)[A-Za-z0-9/]{8,}"
    r"|(?<=discord\.com/api/webhooks/)[A-Za-z0-9/_\-]{8,}",
    re.DOTALL,
)
# Secrets known by where they stand rather than how they look: a URL's password
# (``scheme://user:PASS@host``), ``curl``/``wget -u user:PASS``, ``--password PASS`` or ``=PASS``,
# ``mysql -pPASS``, and ``NAME=value`` where the name says secret (``AWS_SECRET_ACCESS_KEY=...``).
_PLACES = re.compile(
    rf"(?P<url>\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@'\"\\]+:)(?P<url_secret>[^\s/@'\"\\]+)(?=@)"
    rf"|(?P<user>\b(?:curl|wget)\b[^\n;&|]*?\s-u\s*[^\s:'\"]+:)(?P<user_secret>{_VALUE}+)"
    rf"|(?P<flag>--(?:password|passwd|token|api-key|secret)(?:=|\s+))(?P<flag_secret>{_VALUE}+)"
    rf"|(?P<short>\b(?:mysql|mariadb|mysqldump|mysqladmin)\b[^\n;&|]*?\s-p)"
    rf"(?P<short_secret>[^\s\-]{_VALUE}*)"
    rf"|(?P<name>\b[A-Za-z_][A-Za-z0-9_]*=)(?P<name_secret>{_VALUE}+)"
)
# A variable's name is secret when one of its ``_``-separated words is one of these (KEY, not
# KEYMAP; PASS, not PASSES), or it ends with one of the compound ones.
_SECRET_WORDS = frozenset(
    {
        "KEY",
        "TOKEN",
        "SECRET",
        "SECRETS",
        "PASS",
        "PASSWORD",
        "PASSWD",
        "PWD",
        "CREDENTIAL",
        "CREDENTIALS",
        "AUTH",
        "COOKIE",
        "PRIVATE",
        "PEM",
        "BEARER",
        "SIGNATURE",
    }
)


def secret_name(name: str) -> bool:
    """Whether a variable's name says its value is a secret (``SECRET_NAMES`` inside it, as
    the tap's case pattern reads it)."""
    upper = name.upper()
    return any(word in upper for word in SECRET_NAMES)


def _secret_word(name: str) -> bool:
    """Whether a name in a text (``NAME=value``) says secret: one of its words is one."""
    words = name.upper().replace("-", "_").split("_")
    return any(word in _SECRET_WORDS for word in words) or name.upper().endswith(
        ("APIKEY", "PASSWORD", "SECRET", "TOKEN")
    )


def _place(match: re.Match[str]) -> str:
    for kind in ("url", "user", "flag", "short", "name"):
        if match.group(kind) is not None:
            if kind == "name" and not _secret_word(match.group(kind)[:-1]):
                return match.group(0)
            return match.group(kind) + REDACTED
    return match.group(0)


def redact_text(text: str) -> str:
    """``text`` with every secret-shaped value, and every value in a secret's place,
    replaced by ``REDACTED``. Best effort: a secret of no known shape, in no known place,
    stays as it is."""
    return _PLACES.sub(_place, _SHAPES.sub(REDACTED, text))


def redact_variable(name: str, value: str) -> str:
    """A variable's value as a recording keeps it: gone for a secret name, else by shape."""
    return REDACTED if secret_name(name) else redact_text(value)


def redact_data(value: Any) -> Any:
    """Every string inside plain data (dicts, lists) redacted by shape."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [redact_data(item) for item in value]
    if isinstance(value, dict):
        return {key: redact_data(item) for key, item in value.items()}
    return value


def _redact_bytes(data: bytes) -> bytes:
    return redact_text(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")


def _redact_context(data: bytes) -> bytes:
    """A run's ``N.ctx`` (NUL-separated ``name=value`` fields): each ``env`` field by its
    variable's name and shape, every other field by shape."""
    fields = []
    for item in data.split(b"\0"):
        key, sep, value = item.decode("utf-8", "surrogateescape").partition("=")
        if key == "env":
            name, eq, variable = value.partition("=")
            value = f"{name}{eq}{redact_variable(name, variable)}" if eq else value
        else:
            value = redact_text(value)
        fields.append(f"{key}{sep}{value}".encode("utf-8", "surrogateescape"))
    return b"\0".join(fields)


def scrub(directory: Path, state: str) -> None:
    """Redact a recording in place: each finished run's files (those with ``N.json``, which
    the tap writes last: a run still going keeps its files until the next scrub) and the
    hooks kept in the ``state`` file. A file that cannot be rewritten is left as it is."""
    for done in directory.glob("*.json"):
        if done.name == state:
            _rewrite(done, lambda data: _json_bytes(data, _redact_hooks))
            continue
        if not done.stem.isdigit():  # a record of the earlier Python tap: all of it by shape
            _rewrite(done, lambda data: _json_bytes(data, redact_data))
            continue
        _rewrite(done.with_suffix(".ctx"), _redact_context)
        for suffix in (".in", ".out", ".err"):
            _rewrite(done.with_suffix(suffix), _redact_bytes)


def _redact_hooks(state: dict[str, Any]) -> dict[str, Any]:
    return {**state, "hooks": redact_data(state.get("hooks"))} if "hooks" in state else state


def _json_bytes(data: bytes, change: Any) -> bytes:
    try:
        value = json.loads(data)
    except ValueError:
        return _redact_bytes(data)
    changed = change(value) if isinstance(value, dict) else value
    return data if changed == value else (json.dumps(changed, indent=2) + "\n").encode("utf-8")


def _rewrite(path: Path, change: Any) -> None:
    from hermes_hooks.careful_files import read_regular_file, replace_file

    try:
        data = read_regular_file(str(path))
        new = change(data)
        if new != data:
            replace_file(str(path), new, mode=path.stat().st_mode & 0o7777)
    except OSError:
        pass
