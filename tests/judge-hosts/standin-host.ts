/**
 * A judge host process with the stand-in sandbox (tests/judge-hosts/standin.ts):
 * the real HostWorker and judge pipeline, talking to the server's judge API.
 *
 *   bun tests/judge-hosts/standin-host.ts --server URL --token-file FILE [--capacity N]
 *
 * SIGTERM gives back what it holds, like `bun run worker`.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HostWorker } from "../../src/judge-hosts/host-worker.ts";
import { createLogger } from "../../src/log.ts";
import { standinBackend } from "./standin.ts";

const { values } = parseArgs({ options: { server: { type: "string" }, "token-file": { type: "string" }, capacity: { type: "string" } } });
const capacity = Number(values.capacity ?? 2);
const host = await HostWorker.create({
  server: values.server!,
  token: readFileSync(values["token-file"]!, "utf8").trim(),
  backend: standinBackend(capacity),
  cacheDir: mkdtempSync(join(tmpdir(), "oj-standin-cache-")),
  cacheBytes: 64 * 1024 * 1024,
  capacity,
  log: createLogger("warn"),
  allowHttp: true,
});
const done = host.start();
console.log("standin-host: started");
process.once("SIGTERM", async () => {
  await host.stop();
  process.exit(0);
});
await done.catch((err: unknown) => {
  console.error(`standin-host: ${(err as Error).message}`);
  process.exit(1);
});
