import type { Rng } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

function maze(rng: Rng, rows: number, cols: number, walls: number): string {
  const g: string[][] = Array.from({ length: rows }, () => Array.from({ length: cols }, () => (rng.next() < walls ? "#" : ".")));
  g[0]![0] = "S";
  g[rows - 1]![cols - 1] = "E";
  return `${rows} ${cols}\n${g.map((r) => r.join("")).join("\n")}\n`;
}

/** A serpentine corridor: the only path winds through every other row. */
function serpentine(rows: number, cols: number): string {
  const g: string[][] = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      if (r % 2 === 0) return ".";
      // Odd rows are walls with one gap, alternating between the right and left ends.
      return (r % 4 === 1 ? c === cols - 1 : c === 0) ? "." : "#";
    }),
  );
  g[0]![0] = "S";
  g[rows - 1]![rows % 4 === 1 ? 0 : cols - 1] = "E";
  return `${rows} ${cols}\n${g.map((r) => r.join("")).join("\n")}\n`;
}

export const gridShortestPath: SeedProblem = {
  slug: "grid-path",
  title: "Shortest Path in a Grid",
  difficulty: "hard",
  description:
    "A maze is a grid of open cells (.), walls (#), one start S and one exit E. In one step you move to a horizontally or vertically adjacent cell that is not a wall. Find the fewest steps from S to E, or report that E cannot be reached.",
  inputFormat: "The first line holds R and C. Each of the next R lines holds C characters from . # S E; S and E appear exactly once.",
  outputFormat: "One line with the minimum number of steps, or -1 if E is unreachable.",
  constraints: "1 <= R, C <= 500; R * C >= 2",
  sampleInput: "3 4\nS.#.\n..#E\n....\n",
  tests: (rng) => [
    "1 2\nSE\n",
    "1 3\nS#E\n",
    "3 3\nS#.\n##.\n..E\n",
    maze(rng, 30, 40, 0.25),
    maze(rng, 500, 500, 0.3),
    maze(rng, 500, 500, 0.45),
    serpentine(499, 500),
  ],
  solve(input) {
    const lines = input.split("\n");
    const [rows, cols] = lines[0]!.trim().split(/\s+/).map(Number) as [number, number];
    const open = new Uint8Array(rows * cols);
    let start = -1;
    let exit = -1;
    for (let r = 0; r < rows; r++) {
      const line = lines[1 + r]!;
      for (let c = 0; c < cols; c++) {
        const ch = line[c];
        const cell = r * cols + c;
        open[cell] = ch === "#" ? 0 : 1;
        if (ch === "S") start = cell;
        if (ch === "E") exit = cell;
      }
    }
    const dist = new Int32Array(rows * cols).fill(-1);
    const queue = new Int32Array(rows * cols);
    let head = 0;
    let tail = 0;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
      const cell = queue[head++]!;
      if (cell === exit) break;
      const r = Math.floor(cell / cols);
      const c = cell % cols;
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        const nr = r + dr;
        const nc = c + dc;
        if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
        const next = nr * cols + nc;
        if (open[next] && dist[next] === -1) {
          dist[next] = dist[cell]! + 1;
          queue[tail++] = next;
        }
      }
    }
    return `${dist[exit]}\n`;
  },
};
