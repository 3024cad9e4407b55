"""Hermes' session store (SQLite), written as the session goes (``hosts.transcript``)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..conversation import Said
from ..session import SessionInfo
from ..transcript import Transcript

# --- Hermes -------------------------------------------------------------------------------
# hermes-agent 0.19.0 hermes_state.py, SCHEMA_SQL: the two tables a hook reads a session from.
HERMES_TABLES = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, session_key TEXT, chat_id TEXT,
    chat_type TEXT, thread_id TEXT, display_name TEXT, origin_json TEXT,
    expiry_finalized INTEGER DEFAULT 0, model TEXT, model_config TEXT, system_prompt TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
    message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0,
    reasoning_tokens INTEGER DEFAULT 0, cwd TEXT, git_branch TEXT, git_repo_root TEXT,
    billing_provider TEXT, billing_base_url TEXT, billing_mode TEXT, estimated_cost_usd REAL,
    actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, pricing_version TEXT, title TEXT,
    api_call_count INTEGER DEFAULT 0, handoff_state TEXT, handoff_platform TEXT,
    handoff_error TEXT, compression_failure_cooldown_until REAL, compression_failure_error TEXT,
    compression_fallback_streak INTEGER NOT NULL DEFAULT 0, profile_name TEXT,
    rewind_count INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
    effect_disposition TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT,
    reasoning TEXT, reasoning_content TEXT, reasoning_details TEXT, codex_reasoning_items TEXT,
    codex_message_items TEXT, platform_message_id TEXT, observed INTEGER DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0, api_content TEXT
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
"""


class HermesStateDb(Transcript):
    """Hermes' session store, ``$HERMES_HOME/state.db``, as hermes-agent 0.19.0 fills it: the
    session's row once its first turn starts (before pre_llm_call), then the messages in
    batches where Hermes flushes them: before each model response's first pre_tool_call,
    that response and what came before it (the prompt, an earlier response's results); the
    rest of the turn before post_llm_call. A ``pre_verify`` hook's message is
    left out, as Hermes leaves it out of the durable transcript."""

    format = "hermes-state-db"
    reproduced = frozenset({"sessions", "messages/user", "messages/assistant", "messages/tool"})
    not_reproduced: ClassVar[dict[str, str]] = {
        "messages_fts*": "the full-text search index of the messages (SQLite's own tables)",
        "session_model_usage": "the tokens each model used (the fake model's are meaningless)",
        "gateway_routing": "a gateway's routing of chats to sessions",
        "compression_locks": "the lock a compaction holds",
        "async_delegations": "delegated background tasks",
    }

    def __init__(self, info: SessionInfo, hermes_home: Path) -> None:
        super().__init__(info, hermes_home)
        self.name(hermes_home / "state.db")
        self.waiting: list[tuple[str, str, dict[str, Any], float]] = []
        self.session_due = False

    def on_session(self, said: Said) -> None:
        """The agent opens its store at start; the session's row waits for its first turn."""
        self.session_due = True
        self.store().close()

    def on_submitted(self, said: Said) -> None:
        if not self.session_due:
            return
        self.session_due = False
        config = json.dumps({"max_iterations": 90, "reasoning_config": None, "max_tokens": None})
        with contextlib.closing(self.store()) as db, db:
            db.execute(
                "INSERT OR IGNORE INTO sessions (id, source, model, model_config, system_prompt,"
                " started_at, cwd) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    self.info.session_id,
                    self.info.platform,
                    self.info.model,
                    config,
                    "(hooksim: Hermes' system prompt is not reproduced)",
                    said.at_ms / 1000,
                    self.info.cwd,
                ),
            )

    def store(self) -> sqlite3.Connection:
        assert self.path is not None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path)
        # A run's store is thrown away with its work directory: waiting for the disk at each
        # commit cost about 14 ms, several times a turn, for nothing.
        db.execute("PRAGMA synchronous = OFF")
        db.executescript(HERMES_TABLES)
        return db

    def wait(self, said: Said, role: str, content: str, **columns: Any) -> None:
        self.waiting.append((role, content, columns, said.at_ms / 1000))

    def on_prompt(self, said: Said) -> None:
        self.wait(said, "user", said.text)

    def on_call(self, said: Said) -> None:
        assert said.call is not None
        call = {
            "id": said.call_id,
            "call_id": said.call_id,
            "response_item_id": "fc_" + said.call_id.removeprefix("call_"),
            "type": "function",
            "function": {"name": said.call.name, "arguments": json.dumps(said.call.args)},
        }
        if self.waiting and self.waiting[-1][2].get("finish_reason") == "tool_calls":
            self.waiting[-1][2]["tool_calls"].append(call)  # one response asked for them all
        else:
            self.wait(said, "assistant", "", tool_calls=[call], finish_reason="tool_calls")

    def on_result(self, said: Said) -> None:
        assert said.call is not None
        self.wait(said, "tool", said.text, tool_call_id=said.call_id, tool_name=said.call.name)

    def on_reply(self, said: Said) -> None:
        self.wait(said, "assistant", said.text, finish_reason="stop")

    def on_persisted(self, said: Said) -> None:
        waiting, self.waiting = self.waiting, []
        if not waiting:
            return
        with contextlib.closing(self.store()) as db, db:
            for role, content, columns, at in waiting:
                calls = columns.get("tool_calls")
                db.execute(
                    "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls,"
                    " tool_name, timestamp, finish_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        self.info.session_id,
                        role,
                        content,
                        columns.get("tool_call_id"),
                        json.dumps(calls) if calls else None,
                        columns.get("tool_name"),
                        at,
                        columns.get("finish_reason"),
                    ),
                )
            db.execute(
                "UPDATE sessions SET message_count = (SELECT count(*) FROM messages WHERE"
                " session_id = ?), tool_call_count = tool_call_count + ? WHERE id = ?",
                (self.info.session_id, sum(r == "tool" for r, *_ in waiting), self.info.session_id),
            )
            # What the first model response costs, as Hermes books it after that response.
            db.execute(
                "UPDATE sessions SET billing_provider = ?, billing_base_url = ?,"
                " estimated_cost_usd = 0.0, cost_status = 'unknown', cost_source = 'none'"
                " WHERE id = ? AND billing_provider IS NULL",
                ("custom", "", self.info.session_id),
            )

    @classmethod
    def read(cls, path: Path) -> list[dict[str, Any]]:
        """The store's session rows, then its message rows."""
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        try:
            rows = [dict(r) for r in db.execute("SELECT * FROM sessions")]
            return rows + [dict(r) for r in db.execute("SELECT * FROM messages ORDER BY id")]
        finally:
            db.close()

    @classmethod
    def kind_of(cls, record: Mapping[str, Any]) -> str:
        return "sessions" if "source" in record else f"messages/{record.get('role')}"

    @classmethod
    def keys_of(cls, record: Mapping[str, Any]) -> frozenset[str]:
        """The columns that hold a value (a table's columns are the same in every row), but a
        session's ``title``: a side request of Hermes' own writes it whenever it returns, after
        the first turn."""
        return frozenset(k for k, v in record.items() if v is not None and k != "title")
