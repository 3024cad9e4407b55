// Loading plugins and HOOK.md hooks, and registering their handlers as OpenClaw does.
//
// Ported from openclaw@2026.9.6 (dist/ file:line):
// - api.on -> registerTypedHook: loader-runtime-load-CMBCNIWa.mjs:4285-4327 (unknown names,
//   allowPromptInjection, allowConversationAccess, timeoutMs, matcher, eligibleTriggers);
//   the budget an operator sets: resolveTypedHookTimeoutMs, same file :1871-1877;
//   (an unknown name is reported as `unknown typed hook 'NAME' ignored`, quoted the way
//   hooksim's checks read warnings; OpenClaw writes it with double quotes, :4286-4289)
//   who may read the conversation: hook-policy-decisions-DL3kOjGW.mjs:2-7.
// - api.registerHook: loader-runtime-load-CMBCNIWa.mjs:4214-4282.
// - the tool matcher: hooks-CKanWLsK.mjs:21-55.
// - register() must be synchronous: setup-registry-Cbh_jUlx.mjs:430-443; a plugin whose
//   register throws is rolled back (loader-runtime-load-CMBCNIWa.mjs:1252-1267, 5120).
// - HOOK.md hooks: loader-301ZJ-A-.mjs:50-106 (export, events, the unknown-event warning).
// The rule tables (hook names, who needs which permission) come from hooksim's profile.

import path from "node:path";
import { pathToFileURL } from "node:url";

/** Every registered handler, and what OpenClaw would have logged while registering. */
export const registry = { typed: [], internal: [], warnings: [], plugins: [] };

const NON_CANONICAL_TOOL_MATCHER_NAMES = new Set([
  "bash",
  "exec_command",
  "apply-patch",
  "Write",
  "Edit",
  "agent",
]);

function normalizeMatcher(matcher) {
  if (matcher === undefined) return undefined;
  if (!Array.isArray(matcher)) throw new TypeError("tool hook matcher must be an array of tool names");
  if (matcher.length === 0) throw new TypeError("tool hook matcher must contain at least one tool name");
  const names = new Set();
  for (const name of matcher) {
    if (typeof name !== "string" || !name.trim()) {
      throw new TypeError("tool hook matcher entries must be non-empty strings");
    }
    const canonical = name.trim().toLowerCase();
    if (canonical === "*") throw new TypeError("tool hook matcher wildcard entries are not supported");
    if (NON_CANONICAL_TOOL_MATCHER_NAMES.has(canonical) || NON_CANONICAL_TOOL_MATCHER_NAMES.has(name.trim())) {
      throw new TypeError("tool hook matcher entries must use canonical OpenClaw tool ids");
    }
    names.add(canonical);
  }
  return [...names].sort();
}

/** Whether a handler's matcher covers the tool (no matcher: every tool). */
export function matcherCovers(matcher, toolName) {
  return matcher === undefined || matcher.includes(String(toolName ?? "").toLowerCase());
}

function positiveMs(value) {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return undefined;
  return Math.floor(value);
}

function conversationAllowed(origin, policy) {
  return origin === "bundled"
    ? policy?.allowConversationAccess !== false
    : policy?.allowConversationAccess === true;
}

function eligibleTriggers(value) {
  const known = new Set(["cron", "heartbeat", "user"]);
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((t) => known.has(t)) ? [...value] : undefined;
}

function typedHook(plugin, rules, pending, warn) {
  return (hookName, handler, opts) => {
    if (!rules.hook_names.includes(hookName)) {
      warn(`unknown typed hook '${String(hookName)}' ignored`);
      return;
    }
    const policy = plugin.policy;
    if (policy?.allowPromptInjection === false && rules.prompt_injection_hooks.includes(hookName)) {
      warn(`typed hook "${hookName}" blocked by plugins.entries.${plugin.id}.hooks.allowPromptInjection=false`);
      return;
    }
    if (rules.conversation_hooks.includes(hookName) && !conversationAllowed(plugin.origin, policy)) {
      warn(
        plugin.origin !== "bundled"
          ? `typed hook "${hookName}" blocked because non-bundled plugins must set plugins.entries.${plugin.id}.hooks.allowConversationAccess=true`
          : `typed hook "${hookName}" blocked by plugins.entries.${plugin.id}.hooks.allowConversationAccess=false`,
      );
      return;
    }
    if (hookName === "before_prompt_build" && opts?.requiresToolAuthority === true) {
      // OpenClaw runs these in a second pass once the turn's tools are final
      // (runAuthorizedPromptBuild, hooks-CKanWLsK.mjs:975), which hooksim does not replay.
      warn(`hooksim does not replay before_prompt_build with requiresToolAuthority: this handler never runs here`);
      return;
    }
    const toolHook = hookName === "before_tool_call" || hookName === "after_tool_call";
    const matcher = toolHook ? normalizeMatcher(opts?.matcher) : undefined;
    if (opts?.matcher && !toolHook) warn(`typed hook "${hookName}" ignores tool matcher`);
    const configured = positiveMs(policy?.timeouts?.[hookName]) ?? positiveMs(policy?.timeoutMs);
    pending.push({
      kind: "typed",
      pluginId: plugin.id,
      hookName,
      handler,
      priority: opts?.priority,
      timeoutMs: configured ?? positiveMs(opts?.timeoutMs),
      matcher,
      registrationId: opts?.registrationId,
      eligibleTriggers: hookName === "before_agent_reply" ? eligibleTriggers(opts?.eligibleTriggers) : undefined,
      label: `${plugin.id}: ${hookName}`,
    });
  };
}

function legacyHook(plugin, rules, config, pending, warn) {
  return (events, handler, opts) => {
    const keys = (Array.isArray(events) ? events : [events]).map((e) => String(e).trim()).filter(Boolean);
    for (const key of keys) {
      if (rules.hook_names.includes(key)) {
        warn(`hook event "${key}" is dispatched by the typed hook runner only; api.registerHook registrations for it are not invoked. Use api.on("${key}", ...) instead.`);
      }
    }
    const name = opts?.entry?.hook?.name ?? opts?.name?.trim();
    if (!name) throw new Error("hook registration missing name");
    if (registry.internal.some((h) => h.name === name) || pending.some((h) => h.name === name)) {
      warn(`hook already registered: ${name}`);
      return;
    }
    if (config?.hooks?.internal?.enabled === false || opts?.register === false) return;
    for (const key of keys) {
      const wrapped = async (event) => {
        const context = event.context;
        const had = Object.hasOwn(context, "pluginConfig");
        const previous = context.pluginConfig;
        context.pluginConfig = plugin.pluginConfig;
        try {
          return await handler({ ...event, context });
        } finally {
          if (had) context.pluginConfig = previous;
          else delete context.pluginConfig;
        }
      };
      const input = (event) => ({ ...event, context: { ...event.context, pluginConfig: plugin.pluginConfig } });
      pending.push({ kind: "internal", legacy: true, pluginId: plugin.id, name, key, handler: wrapped, input, label: `${plugin.id}: ${name} (${key})` });
    }
  };
}

function pluginApi(plugin, rules, config, pending, warn, mode = "full") {
  const logger = {};
  for (const level of ["info", "warn", "error", "debug"]) {
    logger[level] = (...args) => process.stderr.write(`[${plugin.id}] ${args.join(" ")}\n`);
  }
  const api = {
    id: plugin.id,
    name: plugin.name ?? plugin.id,
    version: plugin.version,
    description: plugin.description,
    source: plugin.entry,
    rootDir: plugin.dir,
    registrationMode: mode,
    config,
    pluginConfig: plugin.pluginConfig,
    logger,
    resolvePath: (input) => path.resolve(plugin.dir, input),
    on: typedHook(plugin, rules, pending, warn),
    registerHook: legacyHook(plugin, rules, config, pending, warn),
  };
  // The rest of the plugin API (tools, channels, providers, commands...) is outside the hook
  // lifecycle hooksim replays: a registration there is accepted and does nothing.
  return new Proxy(api, {
    get(target, key) {
      if (key in target) return target[key];
      if (typeof key === "string" && /^(register|on)[A-Z]/.test(key)) return () => undefined;
      return undefined;
    },
  });
}

function registerOf(mod) {
  const definition = mod.default ?? mod;
  if (typeof definition === "function") return definition;
  if (definition && typeof definition.register === "function") return definition.register.bind(definition);
  if (definition && typeof definition.activate === "function") return definition.activate.bind(definition);
  return typeof mod.register === "function" ? mod.register : undefined;
}

/** Import one plugin and run its register(api); its hooks join the registry if it succeeds. */
export async function loadPlugin(plugin, rules, config) {
  const warn = (message) => registry.warnings.push(`${message} (plugin ${plugin.id})`);
  if (plugin.notStarted) {
    warn(plugin.notStarted);
    return;
  }
  let mod;
  try {
    mod = await import(pathToFileURL(plugin.entry).href);
  } catch (error) {
    warn(`plugin failed during load: ${error?.message ?? String(error)}`);
    return;
  }
  // A module that names itself must name the manifest's id, or the plugin does not load
  // (loader-runtime-load-CMBCNIWa.mjs:1166-1170).
  const definition = mod.default ?? mod;
  if (definition && typeof definition === "object" && definition.id && definition.id !== plugin.id) {
    warn(`plugin id mismatch (config uses "${plugin.id}", export uses "${definition.id}")`);
    return;
  }
  const register = registerOf(mod);
  if (!register) {
    warn("missing register/activate export");
    return;
  }
  const pending = [];
  const api = pluginApi(plugin, rules, config, pending, warn);
  try {
    const result = register(api);
    if (result && typeof result.then === "function") {
      Promise.resolve(result).catch(() => {});
      throw new Error("plugin register must be synchronous");
    }
  } catch (error) {
    warn(`plugin failed during register: ${error?.message ?? String(error)}`);
    return;
  }
  registry.plugins.push(plugin.id);
  for (const entry of pending) (entry.kind === "typed" ? registry.typed : registry.internal).push(entry);
}

/**
 * A discovery pass over a plugin that registered: OpenClaw loads its plugins again without
 * runtime side effects (registration mode "discovery", loader-runtime-load-CMBCNIWa.mjs:851)
 * and never activates that registry (:5455), so register() runs again and what it registers
 * never fires. The same module, as Node caches it; what the pass says or throws is not shown.
 */
export async function discoverPlugin(plugin, rules, config) {
  if (!registry.plugins.includes(plugin.id)) return;
  try {
    const register = registerOf(await import(pathToFileURL(plugin.entry).href));
    register?.(pluginApi(plugin, rules, config, [], () => undefined, "discovery"));
  } catch {
    // a discovery pass that fails changes nothing the hooks do
  }
}

/** Import one HOOK.md hook's handler; it listens to each of its events. */
export async function loadHookDir(hook, rules) {
  const warn = (message) => registry.warnings.push(message);
  try {
    const mod = await import(pathToFileURL(hook.handler).href);
    const exportName = hook.export ?? "default";
    const handler = mod[exportName];
    if (typeof handler !== "function") throw new Error(`Handler '${exportName}' is not a function`);
    if (hook.events.length === 0) throw new Error("Hook has no events defined in metadata");
    const known = (key) => rules.internal_keys.includes(key) || rules.internal_families.includes(key);
    for (const key of hook.events.filter((e) => !known(e))) {
      warn(`unknown internal hook event '${key}' in hook ${hook.name}: not emitted by OpenClaw core — likely a typo; unless a plugin emits it, the hook never fires`);
    }
    for (const key of hook.events) {
      registry.internal.push({ kind: "internal", legacy: false, pluginId: hook.name, name: hook.name, key, handler, label: `${hook.name} (HOOK.md, ${key})` });
    }
  } catch (error) {
    warn(`Failed to load hook ${hook.name}: ${error?.message ?? String(error)}`);
  }
}
