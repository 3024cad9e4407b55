import { appendFileSync } from "node:fs";

export default function handler(event) {
  appendFileSync(".openclaw-calls", `lifecycle-log:${event.type}:${event.action}\n`);
}
