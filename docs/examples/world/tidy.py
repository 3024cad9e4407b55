"""Claude Code PostToolUse hook: squeeze the spaces in a Python file the model just wrote."""

import json
import re
import sys
from pathlib import Path

call = json.load(sys.stdin)
name = call.get("tool_input", {}).get("file_path", "")
if name.endswith(".py") and Path(name).is_file():
    text = Path(name).read_text()
    Path(name).write_text(re.sub(r" {2,}", " ", text))
    print(json.dumps({"systemMessage": f"tidied {Path(name).name}"}))
