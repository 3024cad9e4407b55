// A plugin that rewrites and blocks tool calls, then writes down what each later hook is given
// of the result, one line per firing appended to `.openclaw-tools` in the working directory:
//
//   HOOK TOOL: {"text": ..., "details": ...}
//
// the text the model reads and the result's `details` (after_tool_call's `result`,
// tool_result_persist's and before_message_write's `message`), without what a run cannot
// reproduce: an exec call's duration and folder, and the workspace's own path, written
// `<workspace>`. before_tool_call writes down the files an apply_patch call targets:
//
//   before_tool_call apply_patch derivedPaths: [...]
//
// before_tool_call sends a `read` of notes.txt to real.txt and blocks an `exec` whose command
// holds `rm `.

import { appendFileSync } from "node:fs";

const workspace = process.cwd();

function write(line) {
  appendFileSync(".openclaw-tools", `${line.split(workspace).join("<workspace>")}\n`);
}

function seen(hook, tool, result) {
  const text = (result?.content ?? []).map((block) => block.text).join("\n");
  const { durationMs, cwd, ...details } = result?.details ?? {};
  write(`${hook} ${tool}: ${JSON.stringify({ text, ...(result?.details ? { details } : {}) })}`);
}

export default {
  id: "file-tools",
  register(api) {
    api.on("before_tool_call", (event) => {
      if (event.derivedPaths) {
        write(`before_tool_call ${event.toolName} derivedPaths: ${JSON.stringify(event.derivedPaths)}`);
      }
      if (event.toolName === "read" && event.params.path === "notes.txt") {
        return { params: { path: "real.txt" } };
      }
      if (event.toolName === "exec" && String(event.params.command).includes("rm ")) {
        return { block: true, blockReason: "no rm here" };
      }
      return undefined;
    });
    api.on("after_tool_call", (event) => seen("after_tool_call", event.toolName, event.result));
    api.on("tool_result_persist", (event) => seen("tool_result_persist", event.toolName, event.message));
    api.on("before_message_write", (event) => {
      if (event.message?.role === "toolResult") seen("before_message_write", event.message.toolName, event.message);
    });
  },
};
