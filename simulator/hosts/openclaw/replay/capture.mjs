// Which handler is running: its output, and the processes it starts, carry its identity.
//
// OpenClaw runs every handler in one process, so hooksim tells them apart with an
// AsyncLocalStorage store set around each call (it follows awaits, timers and callbacks):
// what a handler prints goes to its own record, and every process it starts (a bridge call
// through `$WAGGLE_MIND_CMD`) gets the firing's turn and event, the virtual instant, and the
// handler's tag in its environment, so the mock bridge's ledger says which handler called it.

import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { promisify } from "node:util";

import { now } from "./clock.mjs";

const require = createRequire(import.meta.url);

/** The running handler's record ({tag, turn, event, stdout, stderr}); none outside handlers. */
export const running = new AsyncLocalStorage();

/** Output and errors from outside any handler (a plugin's top level, its register()). */
export const outside = { stdout: "", stderr: "", turn: 0, event: "(register)", tag: "" };

function current() {
  return running.getStore() ?? outside;
}

/** The variables hooksim adds to every process a handler starts: its firing's (the session's
 * name and bridge plan), then the instant, turn, event and the handler's tag. */
export function childEnv() {
  const record = current();
  return {
    ...record.env,
    HOOKSIM_NOW: (now() / 1000).toFixed(3),
    HOOKSIM_TURN: String(record.turn),
    HOOKSIM_EVENT: record.event,
    HOOKSIM_HOOK_TAG: record.tag,
  };
}

function captureStream(stream, field) {
  stream.write = (chunk, encoding, callback) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    current()[field] += text;
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") process.nextTick(done);
    return true;
  };
}

// Where each child_process function takes its options, when its second argument is (or is
// not) the argument list.
const OPTIONS_AT = {
  spawn: [2, 1],
  spawnSync: [2, 1],
  execFile: [2, 1],
  execFileSync: [2, 1],
  fork: [2, 1],
  exec: [1, 1],
  execSync: [1, 1],
};

function withEnv(name, args) {
  const [withList, withoutList] = OPTIONS_AT[name];
  const at = Array.isArray(args[1]) ? withList : withoutList;
  const given = args[at];
  const options =
    given && typeof given === "object" && !Array.isArray(given) ? { ...given } : {};
  options.env = { ...(options.env ?? process.env), ...childEnv() };
  const out = [...args];
  while (out.length < at) out.push(undefined);
  if (typeof given === "function" || given === undefined || given === null) {
    if (given === undefined || given === null) out[at] = options;
    else out.splice(at, 0, options);
  } else {
    out[at] = options;
  }
  return out;
}

let live = 0; // processes handlers started that have not closed yet

/** How many processes started by handlers are still running (real work to wait for). */
export function liveChildren() {
  return live;
}

function watch(child) {
  if (!child || typeof child.once !== "function") return child;
  live += 1;
  let done = false;
  const end = () => {
    if (!done) live -= 1;
    done = true;
  };
  child.once("close", end);
  child.once("error", end);
  return child;
}

/** Route handler output to its record and tag every process it starts. */
export function installCapture() {
  captureStream(process.stdout, "stdout");
  captureStream(process.stderr, "stderr");
  const childProcess = require("node:child_process");
  for (const name of Object.keys(OPTIONS_AT)) {
    const original = childProcess[name];
    const tagged = function (...args) {
      // A profile whose budgets cancel (a wrong one, kept to prove the rule is pinned) stops
      // what a timed-out handler would start; OpenClaw's do not.
      if (current().cancelled) throw new Error("cancelled: its hook budget ran out");
      const result = original.apply(this, withEnv(name, args));
      return name.endsWith("Sync") ? result : watch(result);
    };
    const custom = original[promisify.custom]; // exec and execFile promisify to {stdout, stderr}
    if (custom) {
      tagged[promisify.custom] = (...args) => {
        const promise = custom(...withEnv(name, args));
        watch(promise.child);
        return promise;
      };
    }
    childProcess[name] = tagged;
  }
  syncBuiltinESMExports(); // ESM imports of node:child_process see the tagged functions
}
