/**
 * Go (Debian's `golang-go`, `/usr/bin/go`), built as a single file in GOPATH
 * mode (`GO111MODULE=off`: no module file, no network), without cgo, with the
 * build cache in the run's private /tmp. The program must be `package main`.
 *
 * No `-trimpath`: Debian's Go 1.19 ships the standard library precompiled in
 * GOROOT/pkg, which a build uses as it is; `-trimpath` changes every package's
 * build ID, so each compile rebuilt the whole standard library into the run's
 * empty cache: 28 s instead of 1.5 s for a program importing fmt, bufio, os,
 * sort, strings and math (measured here, 2026-11-27, load average 14), past
 * the 30 s compile wall limit on a busy machine. The cost is only that a
 * panic's trace names /box/main.go instead of main.go.
 */
import type { Language } from "./types.ts";

const MIB = 1024;
/** The Go runtime's own threads (GC workers, sysmon) on top of the program's goroutines' threads. */
const GO_THREADS = 16;
/**
 * Address space the Go runtime reserves and never touches (its heap arena
 * index and page summaries), KiB. Measured here with `ulimit -v` on Go 1.19
 * (amd64): hello world fails at 700 000 KiB and runs at 750 000 KiB; a heap
 * of N MiB then fits in about 730 MiB + N.
 */
const GO_RESERVED_KIB = 768 * MIB;

export const go: Language<"go"> = {
  id: "go",
  name: "Go",
  displayName: "Go (gc)",
  // Measured 1.54 × C++ (scripts/bench-languages.ts: loop 1.0, sieve 0.8, fmt.Fscan input 4.4): × 1.5 (decision 039).
  timeMultiplier: 1.5,
  editorMode: "go",
  boilerplate: `package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	_ = in
	fmt.Fprint(out, "")

	// Your code here
}
`,
  sourceFileName: () => "main.go",
  compilerFlags: ["build", "-o", "prog"],
  compileArgv(sourceFile, _extraFlags) {
    return ["/usr/bin/go", ...this.compilerFlags, sourceFile];
  },
  compileLimits: {
    cpuTimeLimitMs: 20_000,
    wallTimeLimitMs: 30_000,
    memoryLimitKib: 1024 * MIB,
    // go, compile, asm, link, each with the runtime's threads.
    processLimit: 128,
    outputLimitBytes: 64 * 1024,
    fileSizeLimitKib: 128 * MIB,
    addressSpaceLimit: false,
  },
  env: { GO111MODULE: "off", CGO_ENABLED: "0", GOCACHE: "/tmp/go-cache", GOPATH: "/tmp/go", HOME: "/tmp", GOFLAGS: "", GOMAXPROCS: "1" },
  selectArtifacts: (_source, boxFiles) => (boxFiles.includes("prog") ? ["prog"] : []),
  runCommand(_mainFile, limits) {
    return {
      argv: ["./prog"],
      // The cgroup bounds memory; where only rlimits exist, the address space is the limit plus what
      // the runtime reserves, so a heap past the limit is Go's own "out of memory" (MLE below).
      limits: { ...limits, processLimit: limits.processLimit + GO_THREADS, addressSpaceLimitKib: limits.memoryLimitKib + GO_RESERVED_KIB },
    };
  },
  reclassify(result) {
    if ((result.status === "RE" || result.status === "SG") && /fatal error: (runtime: )?out of memory/.test(result.stderr)) {
      return { ...result, status: "MLE", message: "out of memory" };
    }
    return result;
  },
  package: { code: "go", aliases: ["golang"], extensions: ["go"] },
  requires: [{ path: "/usr/bin/go", versionArgs: ["version"], debianPackage: "golang-go" }],
  selfTest: {
    code: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar a, b int64\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n',
    stdin: "40 2\n",
    expectedStdout: "42\n",
  },
};
