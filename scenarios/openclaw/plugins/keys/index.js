// A plugin that writes down what each handler is given: one line per typed hook firing,
// appended to `.openclaw-keys` in the working directory,
//
//   HOOK event: KEY KEY=undefined ... | ctx: KEY ...
//
// the keys of the event and of the context, sorted, a key whose value is `undefined` marked so
// (it is there, as `key in event` tells, though JSON would drop it); and `register` each time
// OpenClaw calls register(). `plugins.entries.keys.config.hooks` names the hooks to listen to
// (default: every typed hook); `config.priorities` registers each at these priorities, its
// lines then starting `HOOK @PRIORITY` (default: one handler, at the default priority).

import { appendFileSync } from "node:fs";

const HOOKS = [
  "before_model_resolve", "agent_turn_prepare", "before_prompt_build", "before_agent_reply",
  "model_call_started", "model_call_ended", "llm_input", "llm_output", "before_agent_finalize",
  "agent_end", "before_compaction", "after_compaction", "before_reset", "inbound_claim",
  "channel_pairing_requested", "message_received", "message_sending", "reply_payload_sending",
  "message_sent", "before_tool_call", "after_tool_call", "tool_result_persist",
  "before_message_write", "session_start", "session_end", "subagent_delivery_target",
  "subagent_spawned", "subagent_progress", "subagent_ended", "gateway_start", "gateway_stop",
  "heartbeat_prompt_contribution", "cron_reconciled", "cron_changed", "skill_proposal_evaluate",
  "skill_proposal_changed", "skill_changed", "before_dispatch", "reply_dispatch",
  "before_install", "before_agent_run", "resolve_exec_env",
];

function keys(value) {
  if (!value || typeof value !== "object") return "-";
  return Object.keys(value)
    .sort()
    .map((key) => (value[key] === undefined ? `${key}=undefined` : key))
    .join(" ");
}

export default {
  id: "keys",
  register(api) {
    appendFileSync(".openclaw-keys", `register ${api.registrationMode}\n`);
    const priorities = api.pluginConfig?.priorities;
    for (const hook of api.pluginConfig?.hooks ?? HOOKS) {
      for (const priority of priorities ?? [undefined]) {
        const name = priority === undefined ? hook : `${hook} @${priority}`;
        api.on(hook, (event, ctx) => {
          appendFileSync(".openclaw-keys", `${name} event: ${keys(event)} | ctx: ${keys(ctx)}\n`);
        }, priority === undefined ? undefined : { priority });
      }
    }
  },
};
