// The probe hooksim loads beside a scenario's plugins, in a real OpenClaw run and in the replay
// compare runs: two handlers on every typed hook, the first and the last to run, and one on
// every internal event family, recording each firing and returning nothing (see ../record.mjs).

import { loaded, probe } from "../record.mjs";

// OpenClaw 2026.9.6's typed hook names: pluginHookNameSet, dist/hooks-CKanWLsK.mjs:408-451.
export const HOOK_NAMES = [
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
// The internal event families (dist/internal-hook-types-Deg4lhm7.mjs:2-33); a family handler
// runs before the handlers of its exact keys (dist/internal-hooks-BksM5BTY.mjs:91-103).
export const FAMILIES = ["agent", "command", "gateway", "message", "session"];
// The two ends of the priority range a plugin uses: OpenClaw runs higher priorities first, so
// the probe records each firing before every other handler and again after them.
const FIRST = 1000;
const LAST = -1000;

export default {
  id: "hooksim-probe",
  name: "hooksim probe",
  description: "Records every hook OpenClaw fires.",
  register(api) {
    loaded("hooksim-probe", api);
    for (const name of HOOK_NAMES) {
      api.on(name, probe("plugin", name, "first"), { priority: FIRST });
      api.on(name, probe("plugin", name, "last"), { priority: LAST });
    }
    api.registerHook(FAMILIES, probe("internal", ""), { name: "hooksim-probe" });
  },
};
