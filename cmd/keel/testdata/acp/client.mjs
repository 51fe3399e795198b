// An editor driving `keel acp` with the official TypeScript client
// (@agentclientprotocol/sdk), for cmd/keel/acp_node_e2e_test.go: a prompt
// that plans, asks a permission (answered here), edits a file through the
// editor's fs methods, then a prompt this client cancels. It prints what
// it saw as one JSON object on stdout.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const keel = spawn(process.env.KEEL_BIN, ["acp"], { cwd: process.env.PROJECT, stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(keel.stdin), Readable.toWeb(keel.stdout));
const buffers = JSON.parse(process.env.BUFFERS || "{}"); // unsaved editor buffers by path
const seen = { updates: [], permissions: [], reads: [], writes: {} };
let onUpdate = null;

const app = acp
  .client({ name: "keel-e2e" })
  .onRequest("session/request_permission", ({ params }) => {
    seen.permissions.push(params);
    const allow = params.options.find((o) => o.kind === "allow_once");
    return { outcome: { outcome: "selected", optionId: allow.optionId } };
  })
  .onRequest("fs/read_text_file", ({ params }) => {
    seen.reads.push(params.path);
    return { content: buffers[params.path] ?? readFileSync(params.path, "utf8") };
  })
  .onRequest("fs/write_text_file", ({ params }) => {
    seen.writes[params.path] = params.content;
    buffers[params.path] = params.content;
    return {};
  })
  .onNotification("session/update", ({ params }) => {
    seen.updates.push(params.update);
    if (onUpdate) onUpdate(params.update);
  });

try {
  await app.connectWith(stream, async (ctx) => {
    seen.init = await ctx.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    const { sessionId } = await ctx.request("session/new", { cwd: process.env.PROJECT, mcpServers: [] });
    seen.sessionId = sessionId;
    const first = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "fix the greeting" }] });
    seen.firstStop = first.stopReason;
    // Cancel on the second answer's first chunk. A chunk of the first
    // answer ("greeting fixed") can reach this handler after the first
    // prompt's response did (the SDK queues notifications): cancelling
    // on it would cancel nothing, and the second prompt would then wait
    // on a model that never finishes.
    let cancelled = false;
    onUpdate = (u) => {
      const text = u.content?.text ?? "";
      if (!cancelled && u.sessionUpdate === "agent_message_chunk" && text !== "" && !"greeting fixed".includes(text)) {
        cancelled = true;
        ctx.notify("session/cancel", { sessionId });
      }
    };
    const second = await ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "think it over" }] });
    seen.secondStop = second.stopReason;
  });
} catch (err) {
  seen.error = String(err && err.stack ? err.stack : err);
}
keel.stdin.end();
await new Promise((done) => keel.once("exit", done));
process.stdout.write(JSON.stringify(seen) + "\n");
