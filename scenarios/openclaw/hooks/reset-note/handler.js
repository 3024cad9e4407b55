import { appendFileSync } from "node:fs";

export default function handler(event) {
  appendFileSync(".openclaw-calls", `reset-note:${event.type}:${event.action}\n`);
  event.messages.push("Reset hook ran.");
}
