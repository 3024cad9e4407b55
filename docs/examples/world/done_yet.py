"""Claude Code Stop hook: send the model back until its last message in the transcript keeps the promise."""

import json
import sys
from pathlib import Path

PROMISE = "<promise>DONE</promise>"

stop = json.load(sys.stdin)
said = ""
for line in Path(stop["transcript_path"]).read_text().splitlines():
    record = json.loads(line)
    if record.get("type") == "assistant":
        content = record["message"]["content"]
        said = "".join(part.get("text", "") for part in content if isinstance(part, dict))
if PROMISE not in said:
    print(json.dumps({"decision": "block", "reason": f"Run the tests first, then say {PROMISE}."}))
