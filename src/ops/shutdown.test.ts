/**
 * stopOnSignals: the steps in order and exit 0; a failing step does not stop
 * the later ones; a step that hangs, or a second signal, runs the last resort
 * at once and exits 1 naming the step. (The real process: tests/ops/restart.test.ts.)
 */
import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { captureLog } from "../../tests/judge/fixtures.ts";
import { stopOnSignals, type ShutdownStep } from "./shutdown.ts";

function harness(steps: ShutdownStep[], deadlineMs = 60_000) {
  const signals = new EventEmitter();
  const log = captureLog();
  const calls: string[] = [];
  const exits: number[] = [];
  let exited!: (code: number) => void;
  const exit = new Promise<number>((r) => (exited = r));
  stopOnSignals({
    what: "server",
    log,
    steps,
    lastResort: () => calls.push("last resort"),
    deadlineMs,
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
    signals: signals as never,
  });
  return { signals, log, calls, exits, exit };
}

describe("stopOnSignals", () => {
  test("SIGTERM runs the steps in order, then the last resort, and exits 0", async () => {
    const order: string[] = [];
    const h = harness([
      { name: "judge", run: async () => order.push("judge") },
      { name: "sandbox", run: () => order.push("sandbox") },
    ]);
    h.signals.emit("SIGTERM");
    expect(await h.exit).toBe(0);
    expect(order).toEqual(["judge", "sandbox"]);
    expect(h.calls).toEqual(["last resort"]);
    expect(h.log.text()).toContain("stopped");
  });

  test("a step that throws is logged, the later steps still run, and the exit is 1", async () => {
    const order: string[] = [];
    const h = harness([
      { name: "the database", run: () => Promise.reject(new Error("gone")) },
      { name: "sandbox", run: () => order.push("sandbox") },
    ]);
    h.signals.emit("SIGINT");
    expect(await h.exit).toBe(1);
    expect(order).toEqual(["sandbox"]);
    expect(h.calls).toEqual(["last resort"]);
    expect(h.log.text()).toContain("the database failed: gone");
  });

  test("a step that hangs past the deadline: the last resort runs once and the exit is 1, naming the step", async () => {
    const h = harness([{ name: "giving the jobs back", run: () => new Promise(() => {}) }], 50);
    h.signals.emit("SIGTERM");
    expect(await h.exit).toBe(1);
    expect(h.calls).toEqual(["last resort"]);
    expect(h.log.text()).toContain("not stopped within");
    expect(h.log.text()).toContain("while giving the jobs back");
    expect(h.exits).toEqual([1]);
  });

  test("a second signal while stopping ends it at once", async () => {
    const h = harness([{ name: "closing connections", run: () => new Promise(() => {}) }]);
    h.signals.emit("SIGTERM");
    await Bun.sleep(0);
    h.signals.emit("SIGINT");
    expect(await h.exit).toBe(1);
    expect(h.calls).toEqual(["last resort"]);
    expect(h.log.text()).toContain("SIGINT again while closing connections");
  });
});
