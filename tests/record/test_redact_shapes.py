"""Redaction by shape and by place covers the credentials people paste and export most.

Each credential below is planted in a text (a prompt, a command line, an environment value):
after redaction none of its secret part is left, and what is not a secret stays as it was.
"""

from __future__ import annotations

import pytest
from hooksim.record.redact import REDACTED, redact_text, redact_variable

PLANTED = [
    (
        "a URL's password",
        "db at postgres://admin:hunter2SECRETURL@db.example.com/prod",
        "hunter2SECRETURL",
    ),
    (
        "a Slack webhook",
        "https://hooks.slack.com/services/T0AAA/B0BBB/SLACKSECRET1234",
        "SLACKSECRET1234",
    ),
    ("a Stripe live key", "stripe sk_live_STRIPEINPROMPT12345", "STRIPEINPROMPT12345"),
    ("a Stripe restricted key", "rk_live_ABCDEFGH12345678", "ABCDEFGH12345678"),
    ("a GitLab token", "token glpat-abcdefghij1234567890", "abcdefghij1234567890"),
    ("a Google API key", "key=AIza" + "Sy" + "B" * 33, "B" * 33),
    ("a Hugging Face token", "hf_" + "aB3" * 12, "aB3" * 12),
    ("an npm token", "//registry/:_authToken=npm_" + "a1B2" * 9, "a1B2" * 9),
    ("a PyPI token", "pypi-AgEIcHlwaS5vcmc" + "CJDAwMDAw" * 6, "CJDAwMDAw" * 6),
    ("curl -u", "curl -u admin:hunter4BASICUSER https://x", "hunter4BASICUSER"),
    ("mysql -p", "mysql -psecretMYSQLPW db", "secretMYSQLPW"),
    ("--password", "tool --password s3cretPASSWORD --user x", "s3cretPASSWORD"),
    (
        "a secret NAME=value",
        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfi",
        "wJalrXUtnFEMI",
    ),
]


@pytest.mark.parametrize(("what", "text", "secret"), PLANTED, ids=[p[0] for p in PLANTED])
def test_a_planted_credential_is_redacted(what: str, text: str, secret: str) -> None:
    redacted = redact_text(text)
    assert secret not in redacted, what
    assert REDACTED in redacted


@pytest.mark.parametrize(
    "text",
    [
        "mkdir -p build && cd build",
        "PATH=/usr/bin:/bin HOME=/home/me ls -la",
        "see https://example.com/docs/a:b@c for more",
        "git log -p -- file.txt",
        "cp -pr a b; mkdir -pv x; tar -pxzf a.tgz; ls -pla; ssh -p2222 host",
        "docker run -p8080:80 -u 1000:1000 image",
        "json.dumps(x, sort_keys=True) --max_tokens=512 --author=bob SIGNED=1 KEYMAP=us PASSES=3",
        "hf_hub_download $npm_config_registry pypi-simple-client",
    ],
)
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


def test_an_environment_value_in_a_recording_is_redacted_by_shape_too() -> None:
    assert redact_variable("CLAUDE_DB_URL", "postgres://u:pw12345678@h/db") == (
        f"postgres://u:{REDACTED}@h/db"
    )
