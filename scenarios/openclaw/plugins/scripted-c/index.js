// The scripted plugin (../scripted) under a third id, its manifest declaring no activation:
// a gateway starts it only when plugins.entries.<id>.hooks sets a hook policy.
import scripted from "../scripted/index.js";

export default { ...scripted, id: "scripted-c", name: "Scripted handlers, a third plugin" };
