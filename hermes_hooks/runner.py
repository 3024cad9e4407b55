"""The one runner for every hook: stdin → payload → handler → exit 0, whatever happens.

Hermes ignores a hook's exit code for these events, but a non-zero exit or a traceback is noise
in its log, and anything on stdout is read by Hermes (``pre_llm_call`` would inject it into the
prompt). So this is the error boundary: each failure becomes one line on stderr and exit 0.
"""

from __future__ import annotations

import os
import sys

from .bridge import Bridge, BridgeError, CallInterrupted
from .call_log import CallLog, call_log_path
from .hooks import HookContext
from .paths import hermes_home
from .payload import PayloadError, parse_payload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

    from .hooks import Binding

# Generous on purpose: ``extra.conversation_history`` grows with the session, and a payload
# dropped for its size is a lost save.
MAX_PAYLOAD_BYTES = 64 * 1024 * 1024


def _read_bounded(stream: BinaryIO) -> bytes:
    data = stream.read(MAX_PAYLOAD_BYTES + 1)
    if len(data) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"payload larger than {MAX_PAYLOAD_BYTES} bytes; ignored")
    return data


def run_hook(binding: Binding, stdin: BinaryIO | None = None) -> int:
    """Run one hook to completion; always return 0."""
    log = CallLog(call_log_path(hermes_home()), binding.event)
    try:
        payload = parse_payload(_read_bounded(stdin or sys.stdin.buffer))
        if payload.is_hermes_test_fire():
            _report(
                binding, "Hermes' test payload (session test-session); nothing sent to the mind"
            )
            return 0
        try:
            bridge = Bridge.from_env(log=log)
        except BridgeError as e:
            log.failed("-", str(e))
            raise
        binding.handler(payload, HookContext(bridge, os.environ))
    except (PayloadError, BridgeError) as e:
        _report(binding, str(e))
    except OSError as e:
        _report(binding, f"{e.strerror or e}" + (f": {e.filename}" if e.filename else ""))
    except Exception as e:  # a bug of ours must not become a traceback in Hermes' log
        _report(binding, f"internal error: {type(e).__name__}: {e}")
    except KeyboardInterrupt:
        _report(binding, "interrupted")
    except CallInterrupted as e:
        _report(binding, f"ended by signal {e.args[0]}")
    return 0


def _report(binding: Binding, message: str) -> None:
    try:
        print(f"hermes-hooks {binding.command}: {message}", file=sys.stderr)
    except OSError:  # stderr closed by the host: nothing left to tell
        return
