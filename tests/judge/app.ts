/**
 * Test support (not a test file): the whole app (REST + tRPC) with its own
 * database and a judge consuming the queue on the real sandbox (bwrap), for
 * test files that submit through the API. Each file passes its own box-id
 * offset so files never share boxes.
 */
import { join } from "node:path";
import { createSandbox, type SandboxSelection } from "../../isolate/index.ts";
import { createApp } from "../../src/app.ts";
import { JudgeService } from "../../src/judge/service.ts";
import { sandboxOptions } from "../../src/sandbox.ts";
import { createTestServices, type TestServices } from "../services.ts";
import { judgeConfig, preparePch, silentLog } from "./fixtures.ts";

export interface JudgeApp {
  app: ReturnType<typeof createApp>;
  t: TestServices;
  judge: JudgeService;
  sandbox: SandboxSelection;
  close(): Promise<void>;
}

/**
 * Starts the app and its judge (two boxes at JUDGE_TEST_BOX_ID_START + `boxOffset`).
 * @param env configuration on top of the tests' (e.g. `{ SANDBOX: "isolate", ISOLATE_BIN }`), for the sandbox and the app.
 * @throws Error without a sandbox.
 */
export async function startJudgeApp(boxOffset: number, env: Record<string, string> = {}): Promise<JudgeApp> {
  await preparePch();
  const sandbox = await createSandbox(sandboxOptions(judgeConfig("file::memory:", env, boxOffset)), () => {}, { buildPch: false });
  if (!sandbox.backend) throw new Error(`needs a sandbox: ${sandbox.reason}`);
  const t = await createTestServices({ env: { SANDBOX_POOL_SIZE: "2", ...env }, sandbox });
  const judge = await JudgeService.create({ config: t.config, db: t.services.db, log: silentLog, sandbox, cacheDir: join(t.dir, "cache"), pollMs: 50 });
  t.services.judge = judge;
  await judge.start();
  return {
    app: createApp(t.services),
    t,
    judge,
    sandbox,
    async close() {
      await judge.stop();
      t.cleanup();
      await sandbox.backend?.close();
    },
  };
}
