// A plugin whose handlers are written in its config, so a scenario states in YAML what each
// one does and OpenClaw's rules are pinned by what happens to them:
//
//   plugins.entries.<id>.config.handlers: [
//     {hook: NAME, priority, timeoutMs, matcher,   api.on(NAME, handler, options), or for an
//      label, internal: true,                      internal key (internal: true, or a key
//                                                  with a colon) api.registerHook
//      when: {FIELD: TEXT},                        act only when the event's FIELD (a dotted
//                                                  path) contains TEXT; otherwise return nothing
//      sleep: MS, call: TOOL, throw: MESSAGE,      wait (a timer: virtual time in hooksim),
//      return: VALUE, promise: true,               call the mind's bridge, throw, return VALUE
//      messages: [TEXT]}                           (wrapped in a Promise), push to event.messages
//   ]
//
// Every call is logged first, one line `LABEL` (default `<plugin id>:<hook>`) appended to
// `.openclaw-calls` in the working directory, so a scenario can read which handlers ran, in
// which order; with `counted: true` the line ends `#N`, the handler's N-th call since the
// plugin was loaded (its module's own memory), and with `show: FIELD` it ends ` FIELD=VALUE`,
// what the handler was given. A handler that sleeps logs again when it wakes: `LABEL woke at
// ISO-TIME` (the clock the handler reads).

import { execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

function field(event, path) {
  return path.split(".").reduce((value, key) => (value == null ? undefined : value[key]), event);
}

function applies(spec, event) {
  return Object.entries(spec.when ?? {}).every(([path, text]) => String(field(event, path) ?? "").includes(text));
}

function bridge(tool, args) {
  execFileSync("/bin/sh", ["-c", '$WAGGLE_MIND_CMD call "$1"', "mind", tool], { input: JSON.stringify(args) });
}

function handlerFor(spec, label) {
  const act = async (event) => {
    if (spec.sleep) {
      await sleep(spec.sleep);
      appendFileSync(".openclaw-calls", `${label} woke at ${new Date().toISOString()}\n`);
    }
    if (spec.call) bridge(spec.call, { label });
    if (spec.throw) throw new Error(spec.throw);
    for (const text of spec.messages ?? []) event.messages.push(text);
    return spec.return;
  };
  let calls = 0;
  return (event) => {
    calls += 1;
    const shown = spec.show ? ` ${spec.show}=${JSON.stringify(field(event.context ?? event, spec.show))}` : "";
    appendFileSync(".openclaw-calls", `${label}${spec.counted ? `#${calls}` : ""}${shown}\n`);
    if (!applies(spec, event.context ?? event)) return undefined;
    if (spec.promise) return Promise.resolve(spec.return);
    if (!spec.sleep && !spec.call && !spec.throw && !spec.messages) return spec.return;
    return act(event);
  };
}

export default {
  id: "scripted",
  name: "Scripted handlers",
  register(api) {
    for (const spec of api.pluginConfig?.handlers ?? []) {
      const label = spec.label ?? `${api.id}:${spec.hook}`;
      const handler = handlerFor(spec, label);
      if (spec.internal || String(spec.hook).includes(":")) {
        api.registerHook([spec.hook], handler, { name: label });
      } else {
        const options = {};
        for (const key of ["priority", "timeoutMs", "matcher"]) if (spec[key] !== undefined) options[key] = spec[key];
        api.on(spec.hook, handler, options);
      }
    }
  },
};
