"""Redaction by shape and by place covers the credentials people paste and export most.

Each credential below is planted in a text (a prompt, a command line, an environment value):
after redaction none of its secret part is left, and what is not a secret stays as it was.
"""

from __future__ import annotations

import pytest
from hooksim.record.redact import REDACTED, redact_text, redact_variable

PLANTED = [
    ("a URL's password", "db at postgres://admin:hunter2SECRETURL@db.example.com/prod", "hunter2SECRETURL"),
    ("a Slack webhook", "https://hooks.slack.com/services/T0AAA/B0BBB/SLACKSECRET1234", "SLACKSECRET1234"),
    ("a Stripe live key", "stripe sk_live_STRIPEINPROMPT12345", "STRIPEINPROMPT12345"),
    ("a Stripe restricted key", "rk_live_ABCDEFGH12345678", "ABCDEFGH12345678"),
    ("a GitLab token", "token glpat-abcdefghij1234567890", "abcdefghij1234567890"),
    ("a Google API key", "key=AIza" + "Sy" + "B" * 33, "B" * 33),
    ("a Hugging Face token", "hf_abcdefghijklmnopqrstu", "abcdefghijklmnopqrstu"),
    ("an npm token", "//registry/:_authToken=npm_abcdefghijklmnop1234", "abcdefghijklmnop1234"),
    ("a PyPI token", "pypi-AgEIcHlwaS5vcmcCJDAwMDAw", "AgEIcHlwaS5vcmcCJDAwMDAw"),
    ("curl -u", "curl -u admin:hunter4BASICUSER https://x", "hunter4BASICUSER"),
    ("mysql -p", "mysql -psecretMYSQLPW db", "secretMYSQLPW"),
    ("--password", "tool --password s3cretPASSWORD --user x", "s3cretPASSWORD"),
    ("a secret NAME=value", "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfi", "wJalrXUtnFEMI"),
]  # fmt: skip


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
    ],
)
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


def test_an_environment_value_in_a_recording_is_redacted_by_shape_too() -> None:
    assert redact_variable("CLAUDE_DB_URL", "postgres://u:pw12345678@h/db") == (
        f"postgres://u:{REDACTED}@h/db"
    )
