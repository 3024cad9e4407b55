// hooksim's OpenClaw runner: OpenClaw's hook lifecycle around real plugin and HOOK.md handlers.
//
// hooksim starts one runner per OpenClaw process it replays (the gateway, or each
// `openclaw agent --local` run) and drives it with JSON lines on stdin; each command gets
// one JSON line back on the file descriptor named by HOOKSIM_REPLY_FD (stdout stays free
// for what handlers and the processes they start print).
//
//   init   {rules, plugins, hookDirs, config, at, tick,  load and register (then `discovery`
//           discovery, process}                          passes of register()); the handlers;
//                                                        `process` numbers its handlers' tags
//   fire   {event, payload, tool, wait, turn, at, back}  run one hook's handlers
//   drain  {within, handlers}                            wait for the work still running
//                                                        (at most `within` virtual ms; with
//                                                        `handlers`, timed-out calls too); the
//                                                        handler calls still running after it
//   quiesce {}                                           wait (up to 2 s) for its real work
//   discover {}                                          one more discovery pass of register()
//
// Between commands nothing runs on the virtual clock; during a command the runner waits for
// real work (a bridge call) as long as it takes and jumps over virtual waits (a handler's
// setTimeout, a hook budget) when nothing real is pending.

import fs from "node:fs";
import readline from "node:readline";

import { installCapture, liveChildren, outside, running } from "./capture.mjs";
import { installClock, jumpToNext, now, real, runDue, setClock, startClock } from "./clock.mjs";
import { changed, dispatch, handlerWork, newFiring, report, setRules, snapshot, stillRunning } from "./dispatch.mjs";
import { discoverPlugin, loadHookDir, loadPlugin, registry } from "./registry.mjs";

const replyFd = Number(process.env.HOOKSIM_REPLY_FD);
// How far virtual time may jump for one wait: past it (a day, more than any hook budget), a
// wait that only timers of its own keep going (a plugin's setInterval) counts as never ending.
const HORIZON_MS = 24 * 3600 * 1000;
const background = new Set(); // dispatches nobody awaited, still running
const problems = []; // uncaught errors of handler code, reported with the next reply
let lastAt = null;
let idle = null; // the real resources of the runner itself, at rest

function reply(message) {
  const updates = [...changed].map(snapshot);
  changed.clear();
  const extra = problems.splice(0);
  fs.writeSync(replyFd, `${JSON.stringify({ ...message, updates, problems: extra })}\n`);
}

function realTurn() {
  return new Promise((resolve) => real.setImmediate(resolve));
}

function realSleep(ms) {
  return new Promise((resolve) => real.setTimeout(resolve, ms));
}

function resources() {
  const counts = new Map();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

// Processes are counted as handlers start and end them (their pipes come and go with them);
// the other real work (files, sockets, immediates) is told by the event loop's resources, and
// real timers kept by Node's own modules (keep-alive sockets) are not waited for.
const COUNTED_APART = new Set(["ProcessWrap", "PipeWrap", "Timeout"]);

/** Whether real work (a process a handler started, a file, a socket) is pending beyond
 * `baseline`. */
function realWorkPending(baseline) {
  if (liveChildren() > 0) return true;
  for (const [kind, count] of resources()) {
    if (!COUNTED_APART.has(kind) && count > (baseline.get(kind) ?? 0)) return true;
  }
  return false;
}

/**
 * Run until `promise` settles: real work is waited for in real time, virtual waits are jumped
 * over once nothing real is pending (real work beyond `baseline`, what was running before the
 * work began). "stuck": nothing is pending at all (or only timers, for a day), and it never
 * settles.
 */
async function settle(promise, baseline, horizonMs = HORIZON_MS) {
  const horizon = now() + horizonMs;
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (;;) {
    await realTurn();
    if (runDue()) continue;
    if (done) return "settled";
    if (realWorkPending(baseline)) {
      await realSleep(1);
      continue;
    }
    await realTurn();
    if (done) return "settled";
    if (!jumpToNext(horizon)) return "stuck";
  }
}

/**
 * A new step at `at`: the clock moves there, firing on the way the timers of work still
 * running (waiting up to 2 s of real time for its real work). A step the hooks of the last
 * one ran past starts when they ended; `back` (the wall clock set back) jumps straight there.
 */
async function arrive(at, back) {
  if (at === undefined || at === lastAt) return;
  lastAt = at;
  if (back) return setClock(at);
  const deadline = real.perfNow() + 2000;
  for (;;) {
    await realTurn();
    if (runDue()) continue;
    if (realWorkPending(idle) && real.perfNow() < deadline) {
      await realSleep(1);
      continue;
    }
    if (!jumpToNext(at)) break;
  }
  if (at > now()) setClock(at);
}

function describe(entry) {
  return {
    label: entry.label,
    kind: entry.kind,
    event: entry.kind === "typed" ? entry.hookName : entry.key,
    plugin: entry.pluginId,
    priority: entry.priority ?? 0,
    budget_ms: entry.kind === "typed" ? (entry.timeoutMs ?? null) : null,
    matcher: entry.matcher ?? null,
  };
}

let loaded = null; // what init loaded: the plugins, the rules and the config

/** A discovery pass more: each plugin's register() again, its handlers kept out. */
async function discover() {
  for (const plugin of loaded.plugins) await discoverPlugin(plugin, loaded.rules, loaded.config);
  reply({ now: now() });
}

async function init(cmd) {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 20) return reply({ error: `Node ${process.versions.node} is too old: the runner needs Node 20 or later` });
  installClock();
  startClock(cmd.at, cmd.tick !== false);
  lastAt = cmd.at;
  installCapture();
  setRules(cmd.rules, cmd.process);
  loaded = { plugins: cmd.plugins, rules: cmd.rules, config: cmd.config };
  for (const plugin of cmd.plugins) await loadPlugin(plugin, cmd.rules, cmd.config);
  for (let pass = 0; pass < (cmd.discovery ?? 0); pass++) {
    for (const plugin of cmd.plugins) await discoverPlugin(plugin, cmd.rules, cmd.config);
  }
  for (const hook of cmd.hookDirs) await loadHookDir(hook, cmd.rules);
  await realTurn();
  idle = resources();
  const handlers = [...registry.typed, ...registry.internal].map(describe);
  reply({ ok: true, node: process.versions.node, handlers, warnings: registry.warnings, now: now() });
}

async function fire(cmd) {
  await arrive(cmd.at, cmd.back);
  const firing = newFiring(cmd);
  const started = now();
  const baseline = resources();
  const outcome = {};
  const work = dispatch(firing, cmd).then(
    (result) => (outcome.result = result),
    (error) => (outcome.error = error instanceof Error ? error.message : String(error)),
  );
  let settled = "background";
  if (cmd.wait === false) {
    background.add(work);
    work.finally(() => background.delete(work));
    await realTurn();
  } else {
    settled = await settle(work, baseline);
  }
  reply({ now: started, end: now(), settled, ...report(firing), result: outcome.result ?? null, error: outcome.error ?? null });
}

/** The user stops the gateway once the last step's real work has ended (up to 2 s). */
async function quiesce() {
  const deadline = real.perfNow() + 2000;
  for (;;) {
    await realTurn();
    if (runDue()) continue;
    if (!realWorkPending(idle) || real.perfNow() >= deadline) break;
    await realSleep(1);
  }
  reply({ now: now() });
}

async function drain(cmd) {
  const within = typeof cmd?.within === "number" ? cmd.within : HORIZON_MS;
  const work = [...background, ...(cmd?.handlers ? handlerWork : [])];
  const settled = work.length ? await settle(Promise.allSettled(work), idle, within) : "settled";
  reply({ now: now(), settled, running: stillRunning() });
}

const COMMANDS = { init, fire, drain, quiesce, discover };

function uncaught(kind) {
  return (error) => {
    const record = running.getStore() ?? outside;
    problems.push(`${kind} in ${record.label ?? "plugin code"}: ${error instanceof Error ? error.message : String(error)}`);
  };
}
process.on("uncaughtException", uncaught("uncaught exception"));
process.on("unhandledRejection", uncaught("unhandled rejection"));

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const cmd = JSON.parse(line);
  try {
    await COMMANDS[cmd.op](cmd);
  } catch (error) {
    reply({ error: `runner: ${error instanceof Error ? error.stack : String(error)}` });
  }
}
process.exit(0);
