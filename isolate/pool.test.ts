/** BoxIdPool and pooledBoxes: the acquire/release/close half every backend shares. */
import { describe, expect, test } from "bun:test";
import { BoxIdPool, pooledBoxes } from "./pool.ts";
import type { Box, RunResult } from "./types.ts";

class FakeBox implements Box {
  resets = 0;
  constructor(readonly id: number) {}
  async writeFile() {}
  async readFile() {
    return null;
  }
  async run(): Promise<RunResult> {
    throw new Error("not used");
  }
}

function setup(size = 2, failOpen: (id: number) => boolean = () => false) {
  const pool = new BoxIdPool(10, 4, size);
  const opened: number[] = [];
  const boxes = pooledBoxes<FakeBox>(pool, {
    async open(id) {
      if (failOpen(id)) throw new Error(`cannot open ${id}`);
      opened.push(id);
      return new FakeBox(id);
    },
    async reset(b) {
      b.resets++;
    },
  });
  return { pool, boxes, opened };
}

describe("pooledBoxes", () => {
  test("hands out distinct ids from the range and waits when all are out", async () => {
    const { boxes } = setup(2);
    const a = await boxes.acquire();
    const b = await boxes.acquire();
    expect([a.id, b.id].sort()).toEqual([10, 11]);
    let third: Box | null = null;
    const waiting = boxes.acquire().then((x) => (third = x));
    await Bun.sleep(5);
    expect(third).toBeNull();
    await boxes.release(a);
    await waiting;
    expect(third!.id).toBe(a.id);
  });

  test("release resets the box once; a second release is ignored and does not free the id twice", async () => {
    const { boxes, pool } = setup(1);
    const a = (await boxes.acquire()) as FakeBox;
    await boxes.release(a);
    await boxes.release(a);
    expect(a.resets).toBe(1);
    const again = await boxes.acquire();
    expect(again.id).toBe(10);
    // Only one id: a doubled give() would let a second acquire through at once.
    let second = false;
    void pool.take().then(() => (second = true));
    await Bun.sleep(5);
    expect(second).toBe(false);
  });

  test("an id whose box fails to open goes back to the pool", async () => {
    let fail = true;
    const { boxes } = setup(1, () => fail);
    await expect(boxes.acquire()).rejects.toThrow("cannot open 10");
    fail = false;
    expect((await boxes.acquire()).id).toBe(10);
  });

  test("close resets every box still out and refuses new acquires", async () => {
    const { boxes } = setup(2);
    const a = (await boxes.acquire()) as FakeBox;
    const b = (await boxes.acquire()) as FakeBox;
    await boxes.closeBoxes();
    expect([a.resets, b.resets]).toEqual([1, 1]);
    await expect(boxes.acquire()).rejects.toThrow("closed");
  });

  test("acquireMany hands out boxes together: pairs wait for two free boxes without holding one, so two judges of validator problems never deadlock", async () => {
    const { boxes } = setup(2);
    const first = await boxes.acquireMany(2);
    expect(first.map((b) => b.id).sort()).toEqual([10, 11]);
    // A second pair and a single wait, in order; neither holds a box while waiting.
    const order: string[] = [];
    const pair = boxes.acquireMany(2).then((bs) => (order.push("pair"), bs));
    const single = boxes.acquire().then((b) => (order.push("single"), b));
    await boxes.release(first[0]!);
    await Bun.sleep(5);
    expect(order).toEqual([]); // the pair is first in line and needs both
    await boxes.release(first[1]!);
    const got = await pair;
    expect(order).toEqual(["pair"]);
    for (const b of got) await boxes.release(b);
    expect((await single).id).toBeGreaterThanOrEqual(10);
    await expect(boxes.acquireMany(3)).rejects.toThrow("cannot take 3 boxes from a pool of 2");
  });
});
