// Running the handlers of one hook as OpenClaw's hook runner does, and recording each call.
//
// Ported from openclaw@2026.9.6 dist/hooks-CKanWLsK.mjs (createHookRunner, :565-1313):
// - priority order, higher first, ties in registration order: getHooksForName, :554-558;
// - modify/gate hooks one after another, results merged, a terminal result ends the chain:
//   runModifyingHook, :837-903, with the merges of :620-739, :1048-1081 (before_agent_run:
//   most restrictive, an invalid result blocks) and :1083-1135 (before_tool_call: a sticky
//   block, the last params, each handler a copy of the original event);
// - claim hooks, the first {handled: true} wins: runClaimingHook, :905-940;
// - observe hooks all at once, return values ignored: runVoidHook, :807-833;
// - the synchronous tool_result_persist and before_message_write: :762-805;
// - a budget that does not cancel the handler: withHookTimeout, :391-407;
// - an error fails open (logged, handler skipped) except for the fail-closed hooks, where it
//   ends the dispatch: handleHookError, :744-751, and hook-runner-global-C81Znoo2.mjs:95-99.
// Internal (HOOK.md and api.registerHook) handlers: family first, then the exact key, each
// awaited in turn, errors logged: internal-hooks-BksM5BTY.mjs:91-103.
// The rule tables (kinds, budgets, the fail-closed set, merges) come from hooksim's profile.

import { addTimer, clearTimer, now } from "./clock.mjs";
import { running } from "./capture.mjs";
import { matcherCovers, registry } from "./registry.mjs";

let rules = null;
let counter = 0;
let processNumber = 1; // which of the replay's OpenClaw processes this runner stands for
/** Records that changed after their firing was reported (finished late, or in background). */
export const changed = new Set();

export function setRules(value, process = 1) {
  rules = value;
  processNumber = process;
}

function jsonSafe(value) {
  const seen = new WeakSet();
  try {
    return JSON.parse(
      JSON.stringify(value, (key, item) => {
        if (typeof item === "bigint") return item.toString();
        if (typeof item === "function") return "[function]";
        if (item instanceof Error) return { error: item.message };
        if (item && typeof item === "object") {
          if (seen.has(item)) return "[circular]";
          seen.add(item);
        }
        return item;
      }) ?? "null",
    );
  } catch {
    return String(value);
  }
}

function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/** A new firing: its records, what OpenClaw logged, and which handler ended the chain. */
export function newFiring(cmd) {
  return { id: ++counter, turn: cmd.turn ?? 0, event: cmd.event, env: cmd.env ?? {}, records: [], logs: [], stoppedBy: null, skipped: 0 };
}

function finish(record, status, value, error) {
  const outcome = { status, value: jsonSafe(value), error: error === undefined ? undefined : message(error), ended: now() };
  if (record.status === "timed_out") record.late = outcome;
  else Object.assign(record, outcome);
  if (record.reported) changed.add(record);
}

function newRecord(entry, firing) {
  const record = {
    // Unique over the replay: each --local turn is a process of its own, with its own runner.
    tag: `${processNumber}:${firing.id}.${firing.records.length + 1}`,
    label: entry.label,
    plugin: entry.pluginId,
    priority: entry.priority ?? 0,
    budgetMs: null,
    turn: firing.turn,
    event: firing.event,
    env: firing.env,
    started: now(),
    status: "running",
    stdout: "",
    stderr: "",
  };
  firing.records.push(record);
  return record;
}

/** Handler calls still running, whether or not their hook still waits for them. */
export const handlerWork = new Set();
/** The records of those calls. */
const runningRecords = new Set();

/** The tags of the handler calls still running (past their budget, or not waited for). */
export function stillRunning() {
  return [...runningRecords].map((record) => record.tag);
}

/** Call one handler with its own record as the running context. */
function invoke(entry, args, firing) {
  const record = newRecord(entry, firing);
  // What the handler is given, as it is given it (a plugin's registerHook handler gets the
  // event with its plugin's config in the context): the input compare reads.
  record.input = jsonSafe(entry.input ? entry.input(args[0]) : args[0]);
  let promise;
  try {
    promise = Promise.resolve(running.run(record, () => entry.handler(...args)));
  } catch (error) {
    promise = Promise.reject(error);
  }
  const done = promise.then(
    (value) => finish(record, "returned", value),
    (error) => finish(record, "threw", undefined, error),
  );
  handlerWork.add(done);
  runningRecords.add(record);
  done.finally(() => {
    handlerWork.delete(done);
    runningRecords.delete(record);
  });
  return { record, promise };
}

/** The handler's promise, or a rejection once its budget runs out (the handler goes on). */
function withTimeout(promise, ms, record) {
  record.budgetMs = ms;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = addTimer(() => {
      if (record.status === "running") {
        record.status = "timed_out";
        record.ended = now();
        if (rules.timeouts_cancel) record.cancelled = true;
        // Reported even if the handler never ends (a process that exits first stops it).
        if (record.reported) changed.add(record);
      }
      reject(new Error(`timed out after ${ms}ms`));
    }, ms, [], false);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimer(timer));
}

function budget(hookName, hook) {
  return hook.timeoutMs ?? rules.budgets_ms[hookName];
}

function failOpen(hookName) {
  return !rules.fail_closed.includes(hookName);
}

function handleError(firing, hookName, hook, error) {
  const line = `[hooks] ${hookName} handler from ${hook.pluginId} failed: ${message(error)}`;
  firing.logs.push(line);
  if (!failOpen(hookName)) throw new Error(line);
}

function byPriority(a, b) {
  const difference = (b.priority ?? 0) - (a.priority ?? 0);
  return rules.priority === "lower_first" ? -difference : difference;
}

function hooksFor(hookName, ctx, toolName) {
  return registry.typed
    .filter((h) => h.hookName === hookName)
    .filter((h) => hookName !== "before_agent_reply" || !h.eligibleTriggers || h.eligibleTriggers.includes(ctx?.trigger))
    .filter((h) => toolName === undefined || toolName === null || matcherCovers(h.matcher, toolName))
    .toSorted(byPriority);
}

// --- merges (hooks-CKanWLsK.mjs:620-739, 1048-1135) ---------------------------------------
const firstDefined = (a, b) => a ?? b;
const lastDefined = (a, b) => b ?? a;
const stickyTrue = (a, b) => (a === true || b === true ? true : undefined);

function concat(left, right) {
  if (left && right) return `${left}\n\n${right}`;
  return right ?? left;
}

function intersectTools(left, right) {
  if (left === undefined) return right;
  if (left.length === 0 || right.length === 0) return [];
  const norm = (list) => list.map((t) => String(t).trim().toLowerCase());
  const [l, r] = [norm(left), norm(right)];
  if (l.includes("*")) return r;
  if (r.includes("*")) return l;
  return [...new Set(l)].filter((t) => r.includes(t));
}

function toolsAllowOf(value) {
  if (value === undefined) return undefined;
  return Array.isArray(value) && value.every((t) => typeof t === "string") ? value : [];
}

function finalizeRetry(retry) {
  const instruction = typeof retry?.instruction === "string" ? retry.instruction.trim() : "";
  return instruction ? { ...retry, instruction } : undefined;
}

const MERGES = {
  model_resolve: (acc, next) => ({
    modelOverride: firstDefined(acc?.modelOverride, next.modelOverride),
    providerOverride: firstDefined(acc?.providerOverride, next.providerOverride),
  }),
  turn_prepare: (acc, next) => ({
    prependContext: concat(acc?.prependContext, next.prependContext),
    appendContext: concat(acc?.appendContext, next.appendContext),
  }),
  prompt_build: (acc, next) => {
    const tools = [acc?.toolsAllow, toolsAllowOf(next.toolsAllow)].filter((t) => t !== undefined);
    const toolsAllow = tools.length ? tools.reduce((a, b) => intersectTools(a, b), undefined) : undefined;
    return {
      systemPrompt: firstDefined(acc?.systemPrompt, next.systemPrompt),
      prependContext: concat(acc?.prependContext, next.prependContext),
      appendContext: concat(acc?.appendContext, next.appendContext),
      ...(toolsAllow !== undefined ? { toolsAllow } : {}),
      prependSystemContext: concat(acc?.prependSystemContext, next.prependSystemContext),
      appendSystemContext: concat(acc?.appendSystemContext, next.appendSystemContext),
    };
  },
  finalize: (acc, next) => {
    if (acc?.action === "finalize") return acc;
    if (next.action === "finalize") return { action: "finalize", reason: next.reason };
    if (acc?.action === "revise" && next.action === "revise") {
      return { action: "revise", reason: concat(acc.reason, next.reason), ...(acc.retry ? { retry: acc.retry } : finalizeRetry(next.retry) ? { retry: finalizeRetry(next.retry) } : {}) };
    }
    if (acc?.action === "revise") return acc;
    if (next.action === "revise") {
      const retry = finalizeRetry(next.retry);
      return { action: "revise", reason: next.reason, ...(retry ? { retry } : {}) };
    }
    return next.action === "continue" ? { action: "continue", reason: next.reason } : (acc ?? next);
  },
  tool_call: (acc, next, hook) => {
    if (acc?.block === true) return acc;
    const params = acc?.requireApproval !== undefined ? acc?.params : lastDefined(acc?.params, next.params);
    return {
      params,
      block: stickyTrue(acc?.block, next.block),
      blockReason: lastDefined(acc?.blockReason, next.blockReason),
      requireApproval: acc?.requireApproval ?? (next.requireApproval ? { ...next.requireApproval, pluginId: hook.pluginId } : undefined),
    };
  },
  agent_run: (acc, next, hook, firing) => {
    const invalid = { outcome: "block", reason: "before_agent_run returned an invalid decision" };
    const decision = next && isHookDecision(next) ? next : invalid;
    const merged = !acc || (decision.outcome === "block" && acc.outcome !== "block") ? decision : acc;
    if (merged === decision) firing.winner = hook.pluginId;
    return merged;
  },
  last: (acc, next) => next,
};

function isHookDecision(value) {
  if (typeof value !== "object" || value === null) return false;
  const keys = Object.keys(value);
  if (value.outcome === "pass") return keys.length === 1;
  if (value.outcome !== "block") return false;
  const allowed = new Set(["outcome", "reason", "message", "category", "metadata"]);
  if (keys.some((k) => !allowed.has(k))) return false;
  if (typeof value.reason !== "string" || !value.reason.trim()) return false;
  if ("message" in value && (typeof value.message !== "string" || !value.message.trim())) return false;
  return true;
}

const STOPS = {
  tool_call: (result) => result.block === true,
  agent_run: (result) => result?.outcome === "block",
};

// --- execution kinds -----------------------------------------------------------------
async function runModifying(firing, hookName, event, ctx, toolName) {
  const hooks = hooksFor(hookName, ctx, toolName);
  if (hooks.length === 0) return undefined;
  const mergeName = rules.merges[hookName] ?? "last";
  const merge = MERGES[mergeName];
  const isolate = rules.isolate.includes(hookName);
  const mergeNull = mergeName === "agent_run";
  const dispatchEvent = (hookName === "before_prompt_build" || hookName === "agent_turn_prepare") && Array.isArray(event.messages)
    ? structuredClone(event)
    : event;
  let result;
  for (const [index, hook] of hooks.entries()) {
    let stop = false;
    try {
      const handlerEvent = isolate ? structuredClone(dispatchEvent) : dispatchEvent;
      // A before_prompt_build handler's context says whether its call is still the active one
      // (hooks-CKanWLsK.mjs:852-858).
      const invocation = hookName === "before_prompt_build" ? { active: true } : undefined;
      const handlerCtx = invocation
        ? { ...ctx, hookInvocation: Object.freeze({ assertActive() {
          if (!invocation.active) throw new Error("prompt hook invocation is no longer active");
        } }) }
        : ctx;
      const { record, promise } = invoke(hook, [handlerEvent, handlerCtx], firing);
      const ms = budget(hookName, hook);
      let value;
      try {
        value = ms ? await withTimeout(promise, ms, record) : await promise;
      } finally {
        if (invocation) invocation.active = false;
      }
      if (value !== undefined && (value !== null || mergeNull)) {
        result = merge(result, value, hook, firing);
        if (result && STOPS[mergeName]?.(result)) {
          firing.stoppedBy = record.tag;
          stop = true;
        }
      }
    } catch (error) {
      handleError(firing, hookName, hook, error);
    }
    if (stop) {
      firing.skipped = hooks.length - index - 1;
      break;
    }
  }
  if (mergeName === "agent_run" && result) return { decision: result, pluginId: firing.winner ?? "unknown" };
  return result;
}

async function runClaiming(firing, hookName, event, ctx) {
  for (const hook of hooksFor(hookName, ctx)) {
    try {
      const { record, promise } = invoke(hook, [event, ctx], firing);
      const value = hook.timeoutMs ? await withTimeout(promise, hook.timeoutMs, record) : await promise;
      if (value?.handled) {
        firing.stoppedBy = record.tag;
        return value;
      }
    } catch (error) {
      handleError(firing, hookName, hook, error);
    }
  }
  return undefined;
}

async function runObserving(firing, hookName, event, ctx, toolName) {
  const hooks = hooksFor(hookName, ctx, toolName);
  const calls = hooks.map(async (hook) => {
    try {
      const { record, promise } = invoke(hook, [event, ctx], firing);
      const ms = budget(hookName, hook);
      if (ms) await withTimeout(promise, ms, record);
      else await promise;
    } catch (error) {
      handleError(firing, hookName, hook, error);
    }
  });
  const failures = (await Promise.allSettled(calls)).filter((r) => r.status === "rejected");
  if (failures.length) throw failures[0].reason;
}

function runSync(firing, hookName, event, ctx) {
  const hooks = hooksFor(hookName, ctx);
  if (hooks.length === 0) return undefined;
  let current = event.message;
  for (const hook of hooks) {
    const record = newRecord(hook, firing);
    const given = { ...event, message: current };
    record.input = jsonSafe(given);
    try {
      const value = running.run(record, () => hook.handler(given, ctx));
      if (value && typeof value.then === "function") {
        Promise.resolve(value).catch(() => undefined);
        finish(record, "returned", "[Promise]");
        record.ignoredPromise = true;
        firing.logs.push(`[hooks] ${hookName} handler from ${hook.pluginId} returned a Promise; this hook is synchronous and the result was ignored.`);
        continue;
      }
      finish(record, "returned", value);
      if (!value) continue;
      if (hookName === "before_message_write" && value.block) return { message: current, block: true };
      if (value.message) current = value.message;
    } catch (error) {
      finish(record, "threw", undefined, error);
      handleError(firing, hookName, hook, error);
    }
  }
  return { message: current };
}

async function runInternal(firing, key, event) {
  const [type, ...rest] = key.split(":");
  const action = rest.join(":");
  const fullEvent = { type, action, sessionKey: event.sessionKey, context: event.context ?? {}, timestamp: new Date(), messages: [] };
  const family = registry.internal.filter((h) => h.key === type);
  const exact = registry.internal.filter((h) => h.key === key);
  const ordered = [...family.filter((h) => !h.legacy), ...family.filter((h) => h.legacy), ...exact.filter((h) => !h.legacy), ...exact.filter((h) => h.legacy)];
  for (const hook of ordered) {
    try {
      const { record, promise } = invoke(hook, [fullEvent], firing);
      const ms = rules.internal_waits_ms[key];
      if (ms) await withTimeout(promise, ms, record);
      else await promise;
    } catch (error) {
      firing.logs.push(`Hook error [${type}:${action}]: ${message(error)}`);
    }
  }
  return { messages: fullEvent.messages, context: fullEvent.context };
}

/** The values JSON cannot carry, written by hooksim as `{"$js": KIND}`, made JavaScript's: a
 * key whose value is undefined stays a key, an AbortSignal and a function are live ones. */
const MADE = { undefined: () => undefined, AbortSignal: () => new AbortController().signal, function: () => () => undefined };

/** The JavaScript values hooksim writes as {$js: kind}, at any depth, made real. */
function revive(value) {
  if (!value || typeof value !== "object") return value;
  for (const [key, item] of Object.entries(value)) {
    if (item && typeof item === "object" && typeof item.$js === "string") value[key] = MADE[item.$js]?.();
    else revive(item);
  }
  return value;
}

/** Start one firing's dispatch; the promise settles with what OpenClaw's runner returns. */
export function dispatch(firing, cmd) {
  const { event: name, payload = {} } = cmd;
  if (name.includes(":")) return runInternal(firing, name, payload.event ?? {});
  const event = revive(payload.event ?? {});
  const ctx = revive(payload.ctx ?? {});
  const kind = rules.kinds[name] ?? "observe";
  if (kind === "sync") {
    try {
      return Promise.resolve(runSync(firing, name, event, ctx));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  if (kind === "claim") return runClaiming(firing, name, event, ctx);
  if (kind === "modify") return runModifying(firing, name, event, ctx, cmd.tool);
  return runObserving(firing, name, event, ctx, cmd.tool);
}

/** A firing as the runner reports it (records marked as reported, so later changes show). */
export function report(firing) {
  for (const record of firing.records) record.reported = true;
  return {
    records: firing.records.map(snapshot),
    logs: firing.logs,
    stopped_by: firing.stoppedBy,
    skipped: firing.skipped,
  };
}

export function snapshot(record) {
  const { reported: _reported, env: _env, ...rest } = record;
  return { ...rest };
}
