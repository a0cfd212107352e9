import type { Rng } from "../rng.ts";
import type { SeedProblem } from "../types.ts";

function grid(rng: Rng, rows: number, cols: number, land: number): string {
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = "";
    for (let c = 0; c < cols; c++) line += rng.next() < land ? "#" : ".";
    lines.push(line);
  }
  return `${rows} ${cols}\n${lines.join("\n")}\n`;
}

export const numberOfIslands: SeedProblem = {
  slug: "islands",
  title: "Number of Islands",
  difficulty: "medium",
  description:
    "A map is a grid of water (.) and land (#). An island is a group of land cells connected horizontally or vertically (not diagonally). Count the islands.",
  inputFormat: "The first line holds R and C. Each of the next R lines holds C characters, each . or #.",
  outputFormat: "One line with the number of islands.",
  constraints: "1 <= R, C <= 500",
  sampleInput: "4 5\n##..#\n#...#\n..#..\n.....\n",
  tests: (rng) => [
    "1 1\n.\n",
    "1 1\n#\n",
    "3 3\n#.#\n.#.\n#.#\n",
    "2 4\n####\n####\n",
    grid(rng, 20, 30, 0.4),
    grid(rng, 500, 500, 0.45),
    grid(rng, 500, 500, 0.7),
  ],
  solve(input) {
    const lines = input.split("\n");
    const [rows, cols] = lines[0]!.trim().split(/\s+/).map(Number) as [number, number];
    const land = new Uint8Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) land[r * cols + c] = lines[1 + r]![c] === "#" ? 1 : 0;
    let islands = 0;
    const stack: number[] = [];
    for (let start = 0; start < rows * cols; start++) {
      if (!land[start]) continue;
      islands++;
      land[start] = 0;
      stack.push(start);
      while (stack.length) {
        const cell = stack.pop()!;
        const r = Math.floor(cell / cols);
        const c = cell % cols;
        for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
          const nr = r + dr;
          const nc = c + dc;
          if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
          const next = nr * cols + nc;
          if (land[next]) {
            land[next] = 0;
            stack.push(next);
          }
        }
      }
    }
    return `${islands}\n`;
  },
};
