// hooksim's record of an OpenClaw run: every hook firing and every call of a scenario's handler.
//
// OpenClaw runs its hooks inside its own Node process, so hooksim cannot put a recorder process
// in front of them as it does for a shell hook. It loads two things beside them instead, both
// importing this module: the probe plugin (probe/), which registers a first handler on every
// typed hook and every internal event family and writes a "fire" record when one fires, and a
// wrapper around each plugin and HOOK.md hook of the scenario, which hands OpenClaw the user's
// own handlers, each wrapped to write a "call" record (what it got, what it returned or threw,
// when it settled). Records are JSON lines, appended to $HOOKSIM_OPENCLAW_LOG; the turn they
// belong to is read from the file the driver announces each step in ($HOOKSIM_OPENCLAW_TURN).
// A handler still runs exactly as OpenClaw calls it: its arguments, `this` and return value
// pass through untouched.

import fs from "node:fs";

// OpenClaw imports a plugin more than once in one process (a full registration, then
// discovery passes): the sequence and the seen events live on the process, not the module.
const state = (globalThis.__hooksimOpenClaw ??= {
  seq: 0, calls: 0, fired: new WeakSet(), firings: new WeakMap(),
});

// Which process a record is of, in the order the processes started: the microsecond the
// process started at, not its pid, which a confined run's PID namespace numbers from 1 anew
// for each process it starts.
const PROCESS = Math.round(performance.timeOrigin * 1000);

// The compaction hooks: an auto compaction runs inside a turn (or after it, in a gateway),
// but belongs to the compaction step the driver announces beside the turn.
const COMPACTION = new Set(["before_compaction", "after_compaction", "session:compact:before",
                            "session:compact:after"]);

function announced(name) {
  try {
    const value = JSON.parse(fs.readFileSync(process.env.HOOKSIM_OPENCLAW_TURN, "utf8"));
    const at = COMPACTION.has(name) && value.compaction ? value.compaction : value;
    return { turn: Number(at.turn) || 0, now_ms: at.now_ms ?? null };
  } catch {
    return { turn: 0, now_ms: null };
  }
}

// A JSON copy of what a handler got or gave: functions, signals, errors and cycles are named,
// not followed (OpenClaw's internal context carries its config, its deps and an AbortSignal).
export function snapshot(value) {
  const seen = new WeakSet();
  const replacer = (key, item) => {
    if (typeof item === "bigint") return String(item);
    if (typeof item === "function") return "[Function]";
    if (typeof item === "symbol") return String(item);
    if (item instanceof Error) return { error: item.message };
    if (typeof AbortSignal !== "undefined" && item instanceof AbortSignal) return "[AbortSignal]";
    if (item && typeof item === "object") {
      if (typeof item.then === "function") return "[Promise]";
      if (seen.has(item)) return "[Circular]";
      seen.add(item);
      if (item instanceof Map) return Object.fromEntries(item);
      if (item instanceof Set) return [...item];
    }
    return item;
  };
  try {
    const text = JSON.stringify(value, replacer);
    return text === undefined ? undefined : JSON.parse(text);
  } catch (error) {
    return `[not JSON: ${error.message}]`;
  }
}

// How deep `shape` follows objects: an event's message content blocks are four levels down.
const SHAPE_DEPTH = 8;

// What JSON cannot say of a value a handler got: every key that is there, one whose value is
// undefined too (JSON.stringify drops it), and the kind of what it holds ("undefined",
// "function", "AbortSignal", "string"...); objects and arrays by their own keys and items.
export function shape(value, depth = 0, ancestors = []) {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "function") return "function";
  if (typeof value !== "object") return typeof value;
  if (typeof AbortSignal !== "undefined" && value instanceof AbortSignal) return "AbortSignal";
  if (typeof value.then === "function") return "Promise";
  if (value instanceof Error) return "Error";
  if (value instanceof Map || value instanceof Set) return value.constructor.name;
  if (ancestors.includes(value)) return "circular";
  if (depth >= SHAPE_DEPTH) return Array.isArray(value) ? "array" : "object";
  const inner = [...ancestors, value];
  const read = (key) => {
    try {
      return shape(value[key], depth + 1, inner);
    } catch {
      return "unreadable";
    }
  };
  if (Array.isArray(value)) return value.map((_, i) => read(i));
  return Object.fromEntries(Object.keys(value).map((key) => [key, read(key)]));
}

/** Append one record to the log; its sequence number. */
export function write(record) {
  const log = process.env.HOOKSIM_OPENCLAW_LOG;
  if (!log) return null;
  const line = { seq: state.seq++, pid: PROCESS, ...announced(record.name), ...record };
  fs.appendFileSync(log, JSON.stringify(line) + "\n");
  return line.seq;
}

export function internalKey(event) {
  return event && typeof event === "object" ? `${event.type}:${event.action}` : String(event);
}

// An internal event's first handler records its firing: OpenClaw runs HOOK.md handlers before
// the probe's, so whichever handler sees the event first writes the "fire" record. A plugin's
// handler gets a copy of the event around the same context object, which identifies it.
function firstSight(name, event) {
  if (!event || typeof event !== "object") return;
  const identity = event.context && typeof event.context === "object" ? event.context : event;
  if (state.fired.has(identity)) return;
  state.fired.add(identity);
  write({ kind: "fire", system: "internal", name, event: snapshot(event), start_ms: Date.now() });
}

// What identifies one firing of a typed hook to its handlers: the context OpenClaw hands each
// of them, else the event.
function firingOf(event, ctx) {
  if (ctx && typeof ctx === "object") return ctx;
  return event && typeof event === "object" ? event : null;
}

// The probe's handlers on one hook, returning nothing, which OpenClaw reads as no opinion for
// every kind of hook. At the "first" end (the top priority, first registration) it records
// the firing, its event and context with every key's presence (`shape`); at the "last" end
// (the bottom priority) what the last handler gets, linked to the firing (`of`).
export function probe(system, name, end = "first") {
  if (system === "internal") {
    return (event) => {
      firstSight(internalKey(event), event);
    };
  }
  if (end === "last") {
    return (event, ctx) => {
      const of = state.firings.get(firingOf(event, ctx) ?? {}) ?? null;
      write({ kind: "last", system, name, of, event: snapshot(event), event_shape: shape(event),
              start_ms: Date.now() });
      return undefined;
    };
  }
  return (event, ctx) => {
    const seq = write({ kind: "fire", system, name, event: snapshot(event), ctx: snapshot(ctx),
                        event_shape: shape(event), ctx_shape: shape(ctx), start_ms: Date.now() });
    const firing = firingOf(event, ctx);
    if (firing && seq !== null) state.firings.set(firing, seq);
    return undefined;
  };
}

/** A register() call of plugin `owner`: OpenClaw may call it more than once per process. */
export function loaded(owner, api) {
  write({ kind: "loaded", owner, mode: api?.registrationMode ?? null });
}

function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

// What a hook process gets in a hooksim run: the turn, the scenario's instant and the event, in
// the environment anything the handler starts (the mock bridge) inherits.
function plumb(name, when) {
  process.env.HOOKSIM_TURN = String(when.turn);
  if (when.now_ms !== null) process.env.HOOKSIM_NOW = (when.now_ms / 1000).toFixed(3);
  process.env.HOOKSIM_EVENT = name;
}

// The key a handler subscribed with that matched this event: the exact key, else its family
// (OpenClaw calls family handlers first, then the exact key's: internal-hooks-BksM5BTY.mjs:91-103).
function matchedKey(keys, fired) {
  if (keys.includes(fired)) return fired;
  return keys.find((key) => !key.includes(":") && fired.startsWith(`${key}:`)) ?? keys[0] ?? fired;
}

// How the run names a handler, as hooksim's replay names it: "plugin: hook" for a typed hook,
// "plugin: name (key)" for a plugin's api.registerHook, "hook (HOOK.md, key)" for a HOOK.md
// folder's handler.
function labelOf(info, fired) {
  if (info.system === "plugin") return `${info.owner}: ${info.name}`;
  const key = matchedKey(info.keys, fired);
  if (info.source === "hookmd") return `${info.owner} (HOOK.md, ${key})`;
  return `${info.owner}: ${info.hookName} (${key})`;
}

// One handler of the scenario, wrapped: a "call" record when OpenClaw calls it, and a
// "settled" record (same id) when what it returned settles, which may be after OpenClaw has
// stopped waiting for it.
export function wrapHandler(handler, info) {
  if (typeof handler !== "function") return handler;
  return function hooksimRecorded(...args) {
    const id = ++state.calls;
    const [event, ctx] = args;
    const name = info.system === "plugin" ? info.name : internalKey(event);
    const when = announced(name);
    const start = { kind: "call", id, system: info.system, source: info.source, name,
                    owner: info.owner, label: labelOf(info, name), event: snapshot(event),
                    start_ms: Date.now() };
    if (info.system === "plugin") {
      start.ctx = snapshot(ctx);
      start.priority = info.priority;
    } else {
      firstSight(name, event); // an internal event's firing is recorded by its first handler
    }
    write(start);
    plumb(name, when);
    const settle = (fields) => write({ kind: "settled", id, end_ms: Date.now(), ...fields });
    let returned;
    try {
      returned = handler.apply(this, args);
    } catch (error) {
      settle({ threw: errorText(error) });
      throw error;
    }
    if (returned && typeof returned.then === "function") {
      write({ kind: "returned", id, promise: true });
      returned.then(
        (value) => settle(value === undefined ? {} : { returned: snapshot(value) }),
        (error) => settle({ threw: errorText(error) }),
      );
      return returned;
    }
    settle(returned === undefined ? {} : { returned: snapshot(returned) });
    return returned;
  };
}

// The api a scenario's plugin registers with: OpenClaw's own, with each handler it hands to
// `on` and `registerHook` wrapped and each registration recorded (OpenClaw may still refuse
// it: an unknown name, a permission gate; its warning says so).
export function wrapApi(api, owner) {
  const mode = api.registrationMode;
  return new Proxy(api, {
    get(target, key, receiver) {
      if (key === "on") {
        return (name, handler, opts) => {
          const info = { system: "plugin", source: "plugin", name, owner, priority: opts?.priority ?? 0 };
          write({ kind: "register", ...info, opts: snapshot(opts), mode });
          return target.on(name, wrapHandler(handler, info), opts);
        };
      }
      if (key === "registerHook") {
        return (events, handler, opts) => {
          const keys = (Array.isArray(events) ? events : [events]).map((e) => String(e).trim());
          const hookName = opts?.entry?.hook?.name ?? opts?.name?.trim();
          const info = { system: "internal", source: "plugin", keys, hookName, owner };
          write({ kind: "register", ...info, name: keys.join(","), opts: snapshot(opts), mode });
          return target.registerHook(events, wrapHandler(handler, info), opts);
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

// A plugin module's entry (its default export, or the module itself) with `register` handed
// the recording api; a bare function is OpenClaw's short form of `register`.
export function wrapPlugin(module, owner) {
  const entry = module && "default" in module ? module.default : module;
  if (typeof entry === "function") {
    return (api, ...rest) => {
      loaded(owner, api);
      return entry(wrapApi(api, owner), ...rest);
    };
  }
  if (!entry || typeof entry.register !== "function") return entry;
  const wrapped = Object.create(Object.getPrototypeOf(entry), Object.getOwnPropertyDescriptors(entry));
  wrapped.register = (api, ...rest) => {
    loaded(owner, api);
    return entry.register.call(entry, wrapApi(api, owner), ...rest);
  };
  return wrapped;
}

// A HOOK.md handler (the module's chosen export), wrapped like a plugin's.
export function wrapInternal(handler, owner, events) {
  return wrapHandler(handler, { system: "internal", source: "hookmd", keys: events, owner });
}
