/**
 * `bun run release`: builds the single executable `dist/oj` with `bun build
 * --compile`. It holds the server, the built client, the migrations and the
 * seed problems; copied to a Debian 12 machine with the sandbox packages
 * (bubblewrap, g++, a JDK, python3), it starts the whole product on an
 * embedded database in ./data (or DATA_DIR). See src/release/binary.ts for
 * its subcommands, and scripts/oj.service for a systemd unit.
 *
 * Steps: build the client (vite) into .release/client (its own folder: client/dist may be
 * served at that moment, by a running server or a browser test, and a build empties its
 * folder first), write .release/entry.ts (every client file and migration imported
 * `with { type: "file" }`, so Bun embeds them), compile.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..");
const out = process.argv.includes("--outfile") ? process.argv[process.argv.indexOf("--outfile") + 1]! : join(root, "dist", "oj");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const run = (cmd: string[]) => {
  // NODE_ENV=production: under `bun test` (NODE_ENV=test) Vite would bundle React's development build.
  const r = Bun.spawnSync(cmd, { cwd: root, stdout: "inherit", stderr: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${r.exitCode})`);
};

const work = join(root, ".release");
mkdirSync(work, { recursive: true });
const clientDir = join(work, "client");
console.log("release: building the client");
run(["bun", "run", "build", "--outDir", clientDir, "--emptyOutDir"]);
const migrationsDir = join(root, "db", "migrations");
const lines: string[] = ['import { runBinary } from "../src/release/binary.ts";'];
const client: string[] = [];
const migrations: string[] = [];
files(clientDir).forEach((path, i) => {
  lines.push(`import c${i} from ${JSON.stringify(`./${relative(work, path)}`)} with { type: "file" };`);
  client.push(`[${JSON.stringify("/" + relative(clientDir, path))}, c${i}]`);
});
files(migrationsDir)
  .filter((p) => p.endsWith(".sql") || p.endsWith("_journal.json"))
  .forEach((path, i) => {
    lines.push(`import m${i} from ${JSON.stringify(relative(work, path))} with { type: "file" };`);
    migrations.push(`[${JSON.stringify(relative(migrationsDir, path))}, m${i}]`);
  });
lines.push(
  `const code = await runBinary(process.argv.slice(2), { client: new Map<string, string>([${client.join(", ")}]), migrations: new Map<string, string>([${migrations.join(", ")}]) });`,
  "if (code !== null) process.exit(code);",
);
writeFileSync(join(work, "entry.ts"), lines.join("\n") + "\n");
console.log(`release: embedding ${client.length} client files and ${migrations.length} migration files`);
mkdirSync(join(out, ".."), { recursive: true });
// libsql picks its native addon with a computed require (`@libsql/${target}`), which a bundle cannot
// follow: name this machine's addon statically, so the compiler embeds the .node file.
const nativeTarget = `${process.platform}-${process.arch}-${process.platform === "linux" ? "gnu" : ""}`.replace(/-$/, "");
const libsqlNative: import("bun").BunPlugin = {
  name: "libsql-native",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async (args) => ({
      contents: (await Bun.file(args.path).text()).replace("return require(`@libsql/${target}`);", `return require("@libsql/${nativeTarget}");`),
      loader: "js",
    }));
  },
};
const built = await Bun.build({
  // The LaTeX converter's worker (src/packages/latex.ts) and the similarity analysis's (src/similarity/jobs.ts)
  // are entry points of their own: a Worker loads each by path. The package import is a child process, the
  // binary itself run as `oj import-worker` (src/release/binary.ts), so it needs no entry point.
  entrypoints: [join(work, "entry.ts"), join(root, "src", "packages", "latex-worker.ts"), join(root, "src", "similarity", "worker.ts")],
  compile: { outfile: out },
  minify: true,
  sourcemap: "linked",
  target: "bun",
  plugins: [libsqlNative],
});
if (!built.success) throw new AggregateError(built.logs, "release: bun build --compile failed");
console.log(`release: ${out} (${(statSync(out).size / 1024 / 1024).toFixed(1)} MiB)`);
