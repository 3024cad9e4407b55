// hooksim's virtual clock inside the Node runner: what OpenClaw's plugin handlers read as time.
//
// Handlers read `Date`, `Date.now()`, `performance.now()` and `process.hrtime` from here, and
// their `setTimeout`, `setInterval` (also through `node:timers` and `node:timers/promises`) are
// timers of this clock, as are OpenClaw's own hook budgets (`withHookTimeout`). hooksim moves
// the clock to each step's instant; in between it ticks with real time (`tick: false` keeps
// what handlers read still, but budgets still run out with real time, so a handler stuck on
// real work cannot wait for ever).
//
// Why not @sinonjs/fake-timers: the runner must decide when virtual time may jump (only when
// no real work, such as a bridge call, is pending), which fake-timers cannot know; and the
// runner ships as package data, so a dependency would have to be vendored. This file is small
// and has no dependencies.

import { AsyncResource } from "node:async_hooks";
import { createRequire, syncBuiltinESMExports } from "node:module";

const require = createRequire(import.meta.url);

/** The real clock and timers, kept before anything is replaced. */
export const real = {
  Date,
  perfNow: performance.now.bind(performance),
  hrtime: process.hrtime,
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setImmediate: globalThis.setImmediate,
};

let base = 0; // virtual ms at `mark`
let mark = 0; // real ms (performance.now) when `base` was set
let ticking = true;
let origin = 0; // virtual ms that performance.now() counts from
let sequence = 0;
const timers = new Map(); // id -> {id, due, order, fn, interval, timeout}

/** The clock hooksim schedules by: virtual time plus the real time since it was last set. */
export function scheduleNow() {
  return base + (real.perfNow() - mark);
}

/** What handlers read: the ticking clock, or (tick: false) the instant it was last set to. */
export function now() {
  return ticking ? scheduleNow() : base;
}

/** Move the clock to `ms` (virtual epoch milliseconds); `tick` says whether it ticks. */
export function setClock(ms, tick = ticking) {
  base = ms;
  mark = real.perfNow();
  ticking = tick;
}

/** Start the clock at the scenario's first instant; performance.now() counts from there. */
export function startClock(ms, tick) {
  setClock(ms, tick);
  origin = ms;
}

class Timeout {
  constructor(id) {
    this.id = id;
    this.referenced = true;
  }
  ref() {
    this.referenced = true;
    return this;
  }
  unref() {
    this.referenced = false;
    return this;
  }
  hasRef() {
    return this.referenced;
  }
  refresh() {
    const timer = timers.get(this.id);
    if (timer) timer.due = now() + timer.delay;
    return this;
  }
  close() {
    timers.delete(this.id);
    return this;
  }
  [Symbol.toPrimitive]() {
    return this.id;
  }
}

/** A timer of the virtual clock; its callback runs in the async context that created it. */
export function addTimer(fn, delay, args, interval) {
  if (typeof fn !== "function") {
    throw new TypeError('The "callback" argument must be of type function');
  }
  const ms = Math.max(1, Number.isFinite(Number(delay)) ? Number(delay) : 1);
  const id = ++sequence;
  const timeout = new Timeout(id);
  const bound = AsyncResource.bind(() => fn.apply(timeout, args));
  timers.set(id, { id, delay: ms, due: now() + ms, order: id, fn: bound, interval, timeout });
  return timeout;
}

export function clearTimer(handle) {
  if (handle == null) return;
  timers.delete(typeof handle === "object" ? handle.id : Number(handle));
}

function nextTimer() {
  let first = null;
  for (const timer of timers.values()) {
    if (!first || timer.due < first.due || (timer.due === first.due && timer.order < first.order)) {
      first = timer;
    }
  }
  return first;
}

function fire(timer) {
  if (timer.interval) {
    timer.due += timer.delay;
    timer.order = ++sequence;
  } else {
    timers.delete(timer.id);
  }
  if (timer.due > base && !ticking) setClock(timer.due);
  timer.fn();
}

/** Run the first timer whose time has come by the ticking clock; false when none has. The
 * caller lets promises settle before the next one, as Node does between timer callbacks. */
export function runDue() {
  const timer = nextTimer();
  if (!timer || timer.due > scheduleNow()) return false;
  fire(timer);
  return true;
}

/** Jump to the next timer (none later than `limit`) and run it; false when there is none. */
export function jumpToNext(limit = Infinity) {
  const timer = nextTimer();
  if (!timer || timer.due > limit) return false;
  if (timer.due > scheduleNow()) setClock(timer.due);
  fire(timer);
  return true;
}

export function pendingTimers() {
  return timers.size;
}

function FakeDate(...args) {
  if (!new.target) return new real.Date(now()).toString();
  return args.length === 0 ? new real.Date(now()) : new real.Date(...args);
}
FakeDate.prototype = real.Date.prototype;
FakeDate.now = () => Math.floor(now());
FakeDate.parse = real.Date.parse;
FakeDate.UTC = real.Date.UTC;

function fakeHrtime(previous) {
  const ns = BigInt(Math.round((now() - origin) * 1e6));
  const seconds = Number(ns / 1_000_000_000n);
  const nanos = Number(ns % 1_000_000_000n);
  if (!previous) return [seconds, nanos];
  const diff = (seconds - previous[0]) * 1e9 + (nanos - previous[1]);
  return [Math.floor(diff / 1e9), diff % 1e9];
}
fakeHrtime.bigint = () => BigInt(Math.round((now() - origin) * 1e6));

/** Replace the clock and timers everywhere handler code can reach them. */
export function installClock() {
  const setTimeoutFake = (fn, delay, ...args) => addTimer(fn, delay, args, false);
  const setIntervalFake = (fn, delay, ...args) => addTimer(fn, delay, args, true);
  globalThis.Date = FakeDate;
  globalThis.setTimeout = setTimeoutFake;
  globalThis.setInterval = setIntervalFake;
  globalThis.clearTimeout = clearTimer;
  globalThis.clearInterval = clearTimer;
  performance.now = () => now() - origin;
  process.hrtime = fakeHrtime;
  const timersModule = require("node:timers");
  Object.assign(timersModule, {
    setTimeout: setTimeoutFake,
    setInterval: setIntervalFake,
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
  });
  const promises = require("node:timers/promises");
  promises.setTimeout = (delay, value, options = {}) =>
    new Promise((resolve, reject) => {
      const signal = options?.signal;
      if (signal?.aborted) return reject(signal.reason);
      const timer = addTimer(() => resolve(value), delay, [], false);
      signal?.addEventListener("abort", () => {
        clearTimer(timer);
        reject(signal.reason);
      });
    });
  syncBuiltinESMExports(); // `import { setTimeout } from "node:timers/promises"` sees these
}
