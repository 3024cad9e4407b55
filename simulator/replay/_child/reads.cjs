// hooksim: record every file this Node process reads, for `hooksim run --cache`.
//
// Preloaded into a Node hook with NODE_OPTIONS=--require (hooksim sets it with HOOKSIM_READS,
// a file of the run): each file opened for reading through `fs` (the CommonJS loader reads a
// required module with fs.readFileSync) is appended to that file, one path a line. Node's own
// modules are compiled in and read no file. ES modules are loaded by Node's internals, which
// this does not see: they are keyed through the scenario's folder.
"use strict";
const fs = require("fs");
const path = require("path");
const { fileURLToPath } = require("url");
const log = process.env.HOOKSIM_READS;
if (log) {
  const append = fs.appendFileSync;
  const seen = new Set();
  const record = (file, flags) => {
    if (typeof file !== "string" && !(file instanceof URL) && !Buffer.isBuffer(file)) return;
    const name = path.resolve(file instanceof URL ? fileURLToPath(file) : String(file));
    const writing = typeof flags === "string" ? /^[wa]/.test(flags) && !flags.includes("+")
      : typeof flags === "number" ? (flags & 3) === fs.constants.O_WRONLY : false;
    if (writing || seen.has(name) || name === log) return;
    seen.add(name);
    try { append(log, name + "\n"); } catch (e) { /* the run is over: nothing to key */ }
  };
  for (const name of ["readFileSync", "readFile", "openSync", "open", "createReadStream"]) {
    const original = fs[name];
    fs[name] = function (file, options, ...rest) {
      const flags = typeof options === "object" && options !== null ? options.flag || options.flags
        : name.startsWith("open") ? options : undefined;
      record(file, flags);
      return original.call(this, file, options, ...rest);
    };
  }
  for (const name of ["readFile", "open"]) {
    const original = fs.promises[name];
    fs.promises[name] = function (file, options, ...rest) {
      const flags = typeof options === "object" && options !== null ? options.flag
        : name === "open" ? options : undefined;
      record(file, flags);
      return original.call(this, file, options, ...rest);
    };
  }
}
