/**
 * Rust (Debian's `rustc-web`, `/usr/bin/rustc`, edition 2021, `-O`), one
 * file, no Cargo and no crates (as Kattis and DOMjudge judge it). rustc links
 * through the system C compiler (`cc`), so gcc is needed too.
 */
import { nativeRun } from "./cpp.ts";
import type { Language } from "./types.ts";

const MIB = 1024;

export const rust: Language<"rust"> = {
  id: "rust",
  name: "Rust",
  displayName: "Rust (rustc, 2021)",
  // Measured 0.56 × C++ (scripts/bench-languages.ts; its input parsing beats scanf): × 1 (decision 039).
  timeMultiplier: 1,
  editorMode: "rust",
  boilerplate: `use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    let _ = (&mut tokens, &mut out);

    // Your code here

    out.flush().unwrap();
}
`,
  sourceFileName: () => "main.rs",
  compilerFlags: ["--edition=2021", "-O", "-C", "debuginfo=0", "--cfg", "online_judge"],
  compileArgv(sourceFile, extraFlags) {
    return ["/usr/bin/rustc", ...this.compilerFlags, ...extraFlags, "-o", "prog", sourceFile];
  },
  compileLimits: {
    cpuTimeLimitMs: 20_000,
    wallTimeLimitMs: 30_000,
    memoryLimitKib: 1024 * MIB,
    // rustc's codegen threads, then cc and ld.
    processLimit: 64,
    outputLimitBytes: 64 * 1024,
    fileSizeLimitKib: 64 * MIB,
    addressSpaceLimit: false,
  },
  env: { HOME: "/tmp" },
  selectArtifacts: (_source, boxFiles) => (boxFiles.includes("prog") ? ["prog"] : []),
  // Rust's main thread uses the process stack, as C++'s does.
  runCommand: (_mainFile, limits) => nativeRun(limits),
  reclassify(result) {
    if ((result.status === "RE" || result.status === "SG") && /memory allocation of \d+ bytes failed/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "memory allocation failed" };
    }
    return result;
  },
  package: { code: "rust", aliases: [], extensions: ["rs"] },
  requires: [
    { path: "/usr/bin/rustc", versionArgs: ["--version"], debianPackage: "rustc-web" },
    { path: "/usr/bin/cc", versionArgs: ["--version"], debianPackage: "gcc" },
  ],
  selfTest: {
    code: "use std::io::Read;\n\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();\n    println!(\"{}\", v[0] + v[1]);\n}\n",
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
