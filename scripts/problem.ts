/**
 * Problem packages from the command line (src/packages/cli.ts):
 *
 *   bun run problem -- import PATH --owner EMAIL [--course ID] [--difficulty easy|medium|hard]
 *   bun run problem -- verify PATH    judge the package's example submissions (verifyproblem-style)
 *
 * PATH is a Kattis / ICPC problem package folder or zip.
 */
import { problemCli } from "../src/packages/cli.ts";

process.exit(await problemCli(process.argv.slice(2)));
