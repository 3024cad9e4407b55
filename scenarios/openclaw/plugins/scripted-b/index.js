// The scripted plugin (../scripted) under a second id, so a scenario can give two plugins
// different policies (plugins.entries.<id>.hooks). Its definition names its own id: OpenClaw
// does not load a module whose id is not its manifest's.
import scripted from "../scripted/index.js";

export default { ...scripted, id: "scripted-b", name: "Scripted handlers, a second plugin" };
