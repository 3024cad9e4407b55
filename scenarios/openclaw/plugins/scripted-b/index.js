// The scripted plugin (../scripted) under a second id, so a scenario can give two plugins
// different policies (plugins.entries.<id>.hooks).
export { default } from "../scripted/index.js";
