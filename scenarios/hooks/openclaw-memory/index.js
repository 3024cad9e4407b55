// A stand-in for the mind's memory hooks as an OpenClaw plugin, the way its OpenClaw handler
// wires the shared core: it calls the mind's bridge (`$WAGGLE_MIND_CMD call TOOL`, one JSON
// object on stdin, the same contract hermes_hooks uses) at these points:
//
//   session_start        start_session
//   before_prompt_build  save_memory (user, temporary); after a compaction, the saved
//                        snapshot goes back to the model as prependContext
//   agent_end            save_memory (assistant): the run's last reply
//   before_compaction    write a snapshot file
//   after_compaction     cleanup_frames (mode compact), once the compaction happened: a gateway
//                        also fires before_compaction for an attempt right after the turn that
//                        filled the window, which stops there; the compaction itself runs
//                        before the next model request and fires both
//
// before_prompt_build and agent_end read the conversation, so OpenClaw registers them only
// with plugins.entries.memory.hooks.allowConversationAccess: true. A failed bridge call is
// logged and swallowed: a memory hook must never break the agent's turn.

import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);
const SNAPSHOT = ".mind-snapshot"; // in the gateway's working directory (the project)

async function call(tool, args) {
  try {
    const child = run("/bin/sh", ["-c", '$WAGGLE_MIND_CMD call "$1"', "mind", tool], { timeout: 10_000 });
    child.child.stdin.end(JSON.stringify(args));
    await child;
  } catch (error) {
    console.error(`memory: ${tool} failed: ${error.message.split("\n")[0]}`);
  }
}

function save(content, role, temporary, sessionId) {
  return call("save_memory", { content, role, temporary, session_id: sessionId ?? "", turn_id: "", source: "openclaw" });
}

function lastReply(messages) {
  for (const message of [...(messages ?? [])].reverse()) {
    if (message?.role !== "assistant") continue;
    const parts = Array.isArray(message.content) ? message.content : [{ type: "text", text: String(message.content ?? "") }];
    const text = parts.filter((p) => p?.type === "text").map((p) => p.text).join("");
    if (text) return text;
  }
  return "";
}

export default {
  id: "memory",
  name: "Memory (hooksim stand-in)",
  register(api) {
    api.on("session_start", (event, ctx) =>
      call("start_session", { session_id: event.sessionId, cwd: ctx.workspaceDir ?? "", model: "", platform: "cli", source: "openclaw" }),
    );
    api.on("before_prompt_build", async (event, ctx) => {
      await save(event.prompt, "user", true, ctx.sessionId);
      if (!existsSync(SNAPSHOT)) return undefined;
      const snapshot = readFileSync(SNAPSHOT, "utf8");
      rmSync(SNAPSHOT);
      return { prependContext: `Before compaction: ${snapshot}` };
    });
    api.on("agent_end", async (event, ctx) => {
      const reply = lastReply(event.messages);
      if (event.success && reply) await save(reply, "assistant", false, ctx.sessionId);
    });
    api.on("before_compaction", (event, ctx) => {
      writeFileSync(SNAPSHOT, `compaction of session ${ctx.sessionId ?? ""} (${event.messageCount} messages)`);
    });
    api.on("after_compaction", () => call("cleanup_frames", { mode: "compact" }));
  },
};
