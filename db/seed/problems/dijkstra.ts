import type { Rng } from "../rng.ts";
import { tokens } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

function graph(rng: Rng, n: number, m: number, maxW: number): string {
  const edges = Array.from({ length: m }, () => `${rng.int(1, n)} ${rng.int(1, n)} ${rng.int(0, maxW)}`);
  return `${n} ${m}\n${edges.join("\n")}${m ? "\n" : ""}`;
}

/** Binary min-heap of [distance, node] pairs. */
class MinHeap {
  private d: number[] = [];
  private v: number[] = [];
  get size(): number {
    return this.d.length;
  }
  push(dist: number, node: number): void {
    this.d.push(dist);
    this.v.push(node);
    let i = this.d.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.d[p]! <= this.d[i]!) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): [number, number] {
    const top: [number, number] = [this.d[0]!, this.v[0]!];
    const lastD = this.d.pop()!;
    const lastV = this.v.pop()!;
    if (this.d.length) {
      this.d[0] = lastD;
      this.v[0] = lastV;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.d.length && this.d[l]! < this.d[m]!) m = l;
        if (r < this.d.length && this.d[r]! < this.d[m]!) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
  private swap(i: number, j: number): void {
    [this.d[i], this.d[j]] = [this.d[j]!, this.d[i]!];
    [this.v[i], this.v[j]] = [this.v[j]!, this.v[i]!];
  }
}

export const dijkstra: SeedProblem = {
  slug: "dijkstra",
  title: "Shortest Routes from the Capital",
  difficulty: "hard",
  description:
    "A country has n cities joined by m one-way roads, each with a travel time. For every city, find the shortest travel time from city 1 (the capital), or report that it cannot be reached.",
  inputFormat: "The first line holds n and m. Each of the next m lines holds a road: u v w, a one-way road from u to v taking w minutes.",
  outputFormat: "One line with n integers: the shortest time from city 1 to cities 1, 2, ..., n, or -1 for a city that cannot be reached.",
  constraints: "1 <= n <= 50000; 0 <= m <= 100000; 1 <= u, v <= n; 0 <= w <= 10^9 (times fit in 64 bits). Roads may repeat or loop.",
  sampleInput: "4 5\n1 2 4\n1 3 1\n3 2 2\n2 4 5\n3 4 9\n",
  checker: "tokens",
  tests: (rng) => [
    "1 0\n",
    "2 0\n",
    "3 3\n1 2 0\n2 3 0\n3 1 7\n",
    "3 2\n2 1 5\n2 3 5\n",
    graph(rng, 50, 200, 100),
    graph(rng, 50000, 100000, 1_000_000_000),
    graph(rng, 10000, 100000, 10),
  ],
  solve(input) {
    const t = tokens(input);
    const n = Number(t[0]);
    const m = Number(t[1]);
    const head = new Int32Array(n + 1).fill(-1);
    const next = new Int32Array(m);
    const to = new Int32Array(m);
    const weight = new Float64Array(m);
    for (let e = 0; e < m; e++) {
      const u = Number(t[2 + 3 * e]);
      to[e] = Number(t[3 + 3 * e]);
      weight[e] = Number(t[4 + 3 * e]);
      next[e] = head[u]!;
      head[u] = e;
    }
    // Path lengths stay below 5 * 10^4 * 10^9 = 5 * 10^13 < 2^53, so doubles are exact.
    const dist = new Float64Array(n + 1).fill(Infinity);
    dist[1] = 0;
    const heap = new MinHeap();
    heap.push(0, 1);
    while (heap.size) {
      const [d, u] = heap.pop();
      if (d > dist[u]!) continue;
      for (let e = head[u]!; e !== -1; e = next[e]!) {
        const nd = d + weight[e]!;
        if (nd < dist[to[e]!]!) {
          dist[to[e]!] = nd;
          heap.push(nd, to[e]!);
        }
      }
    }
    const out: string[] = [];
    for (let v = 1; v <= n; v++) out.push(dist[v] === Infinity ? "-1" : String(dist[v]));
    return out.join(" ") + "\n";
  },
};
