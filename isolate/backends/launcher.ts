/**
 * The bwrap backend's launcher: one small, fixed, statically linked C program
 * that does what the shell join script, `setpriv` and `prlimit` did, in one
 * exec instead of three (each of those is a dynamically linked program whose
 * start-up alone costs about a millisecond, more on a loaded machine):
 *
 *   oj-launch [--cgroup PROCS_FILE]... [--rlimit NAME=SOFT:HARD]... [--user UID:GID] -- PROGRAM ARG...
 *
 * In this order: joins each cgroup (writes its own pid into each
 * `cgroup.procs`), sets the rlimits, sets no_new_privs, drops to UID:GID with
 * no supplementary groups (and checks that the switch cannot be undone), then
 * execs PROGRAM (an absolute path; no PATH search, no shell). Its argv is built
 * by `buildBwrapArgv` from numbers and fixed paths only; the user's command is
 * passed through after `--` untouched, as bwrap's own argv.
 *
 * Exit codes when it fails before the exec (message on stderr):
 * LAUNCH_JOIN_FAILED (could not join a cgroup), LAUNCH_FAILED (anything else).
 *
 * The source is compiled once per SANDBOX_ROOT with the system C compiler
 * (`gcc -static`; `cc` as a fallback) into `<root>/bin/oj-launch-<hash>`; the
 * hash covers the source, so a changed source is rebuilt. Without a compiler
 * the backend falls back to the sh → setpriv → prlimit chain (same limits,
 * slower), and its description says so.
 */
import { constants, promises as fsp, lstatSync } from "node:fs";
import { join } from "node:path";

/** Exit code of the launcher when writing a cgroup.procs file failed. */
export const LAUNCH_JOIN_FAILED = 97;
/** Exit code of the launcher for any other failure before the exec (bad argument, setrlimit, uid switch). */
export const LAUNCH_FAILED = 96;

/** The rlimit names the launcher understands (prlimit(1)'s long option names). */
export const LAUNCH_RLIMITS = ["cpu", "fsize", "stack", "core", "nofile", "memlock", "msgqueue", "nproc", "as"] as const;
export type LaunchRlimit = (typeof LAUNCH_RLIMITS)[number];

export const LAUNCHER_SOURCE = String.raw`/* oj-launch: see isolate/backends/launcher.ts. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define JOIN_FAILED ${LAUNCH_JOIN_FAILED}
#define FAILED ${LAUNCH_FAILED}

static void die(int code, const char *what, const char *arg) {
  fprintf(stderr, "oj-launch: %s%s%s%s%s\n", what, arg ? " " : "", arg ? arg : "", errno ? ": " : "", errno ? strerror(errno) : "");
  exit(code);
}

/* A whole decimal number, nothing else; no sign, no overflow. */
static unsigned long long number(const char *s, const char *arg) {
  if (*s < '0' || *s > '9') { errno = 0; die(FAILED, "bad number in", arg); }
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end) { errno = 0; die(FAILED, "bad number in", arg); }
  return v;
}

static const struct { const char *name; int resource; } LIMITS[] = {
  {"cpu", RLIMIT_CPU}, {"fsize", RLIMIT_FSIZE}, {"stack", RLIMIT_STACK}, {"core", RLIMIT_CORE},
  {"nofile", RLIMIT_NOFILE}, {"memlock", RLIMIT_MEMLOCK}, {"msgqueue", RLIMIT_MSGQUEUE},
  {"nproc", RLIMIT_NPROC}, {"as", RLIMIT_AS},
};

int main(int argc, char **argv) {
  int i = 1;
  int have_user = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  char pid[32];
  /* A session of its own: a Ctrl-C in the server's terminal (SIGINT to the
     foreground process group) must not kill runs; the server stops them itself. */
  (void)setsid();
  snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    const char *opt = argv[i];
    if (i + 1 >= argc || strcmp(argv[i + 1], "--") == 0) { errno = 0; die(FAILED, "missing value after", opt); }
    const char *val = argv[++i];
    if (strcmp(opt, "--cgroup") == 0) {
      int fd = open(val, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
      if (fd < 0) die(JOIN_FAILED, "cannot open", val);
      ssize_t n = write(fd, pid, strlen(pid));
      if (n != (ssize_t)strlen(pid)) die(JOIN_FAILED, "cannot join", val);
      close(fd);
    } else if (strcmp(opt, "--rlimit") == 0) {
      const char *eq = strchr(val, '=');
      const char *colon = eq ? strchr(eq, ':') : NULL;
      if (!eq || !colon) { errno = 0; die(FAILED, "bad rlimit", val); }
      int resource = -1;
      for (size_t k = 0; k < sizeof LIMITS / sizeof LIMITS[0]; k++)
        if (strlen(LIMITS[k].name) == (size_t)(eq - val) && strncmp(val, LIMITS[k].name, eq - val) == 0) resource = LIMITS[k].resource;
      if (resource < 0) { errno = 0; die(FAILED, "unknown rlimit", val); }
      char soft[32];
      size_t len = (size_t)(colon - eq - 1);
      if (len == 0 || len >= sizeof soft) { errno = 0; die(FAILED, "bad rlimit", val); }
      memcpy(soft, eq + 1, len);
      soft[len] = 0;
      struct rlimit rl = { number(soft, val), number(colon + 1, val) };
      if (rl.rlim_cur > rl.rlim_max) { errno = 0; die(FAILED, "soft limit above hard limit in", val); }
      if (setrlimit(resource, &rl) != 0) die(FAILED, "setrlimit", val);
    } else if (strcmp(opt, "--user") == 0) {
      const char *colon = strchr(val, ':');
      if (!colon || colon == val) { errno = 0; die(FAILED, "bad user", val); }
      char u[32];
      size_t len = (size_t)(colon - val);
      if (len >= sizeof u) { errno = 0; die(FAILED, "bad user", val); }
      memcpy(u, val, len);
      u[len] = 0;
      unsigned long long uu = number(u, val), gg = number(colon + 1, val);
      if (uu == 0 || gg == 0 || uu > 0xfffffffeULL || gg > 0xfffffffeULL) { errno = 0; die(FAILED, "refusing user", val); }
      uid = (uid_t)uu;
      gid = (gid_t)gg;
      have_user = 1;
    } else {
      errno = 0;
      die(FAILED, "unknown option", opt);
    }
  }
  if (i + 1 >= argc || argv[i + 1][0] != '/') { errno = 0; die(FAILED, "usage: oj-launch [options] -- /absolute/program [args]", NULL); }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die(FAILED, "prctl(PR_SET_NO_NEW_PRIVS)", NULL);
  if (have_user) {
    if (setgroups(0, NULL) != 0) die(FAILED, "setgroups", NULL);
    if (setresgid(gid, gid, gid) != 0) die(FAILED, "setresgid", NULL);
    if (setresuid(uid, uid, uid) != 0) die(FAILED, "setresuid", NULL);
    /* The switch must be final: regaining root has to fail. */
    if (setresuid(0, 0, 0) == 0 || getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid) {
      errno = 0;
      die(FAILED, "the uid switch did not stick", NULL);
    }
  }
  /* Stay as a child subreaper around the program instead of exec'ing it:
     processes orphaned by bwrap's exit (its helpers, a namespace being torn
     down) are re-parented here and reaped at once, instead of lingering as
     zombies under a host init that reaps slowly and counting against the box
     uid's RLIMIT_NPROC in the next run. The program's exit status is mirrored. */
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) die(FAILED, "prctl(PR_SET_CHILD_SUBREAPER)", NULL);
  pid_t child = fork();
  if (child < 0) die(FAILED, "fork", NULL);
  if (child == 0) {
    /* The runner kills this launcher at a limit: the program must go with it. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) die(FAILED, "prctl(PR_SET_PDEATHSIG)", NULL);
    if (getppid() == 1) _exit(FAILED);
    execv(argv[i + 1], argv + i + 1);
    die(FAILED, "cannot execute", argv[i + 1]);
  }
  int status = 0, child_status = 0;
  for (;;) {
    pid_t w = waitpid(-1, &status, 0);
    if (w < 0) {
      if (errno == EINTR) continue;
      break; /* ECHILD: every descendant has been reaped */
    }
    if (w == child) child_status = status;
  }
  if (WIFSIGNALED(child_status)) {
    int sig = WTERMSIG(child_status);
    signal(sig, SIG_DFL);
    kill(getpid(), sig);
    return 128 + sig;
  }
  return WIFEXITED(child_status) ? WEXITSTATUS(child_status) : FAILED;
}
`;

/** Short content hash of the launcher source (names the binary, so a changed source is rebuilt). */
export function launcherHash(): string {
  return new Bun.CryptoHasher("sha256").update(LAUNCHER_SOURCE).digest("hex").slice(0, 16);
}

/** Runs the launcher once (`-- /bin/true`): a root on a `noexec` mount builds it but cannot run it. */
async function works(path: string): Promise<string | null> {
  try {
    const p = Bun.spawn([path, "--", "/bin/true"], { stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
    const err = await new Response(p.stderr).text();
    const code = await p.exited;
    return code === 0 ? null : `exit ${code}: ${err.trim().slice(0, 200)}`;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Builds (or finds) the launcher under `<root>/bin` and checks that it runs.
 * `root` must be a directory only the server's user can write (SANDBOX_ROOT is
 * checked for that).
 * @returns the absolute path of the launcher, or `{ why }` when no C compiler
 *          could build it or it cannot run there (the caller falls back to
 *          sh/setpriv/prlimit).
 */
export async function ensureLauncher(root: string): Promise<{ path: string } | { why: string }> {
  const found = await findOrBuild(root);
  if ("why" in found) return found;
  const problem = await works(found.path);
  return problem ? { why: `the launcher ${found.path} does not run (${problem}; is SANDBOX_ROOT on a noexec mount?)` } : found;
}

async function findOrBuild(root: string): Promise<{ path: string } | { why: string }> {
  const binDir = join(root, "bin");
  await fsp.mkdir(binDir, { recursive: true, mode: 0o755 });
  await fsp.chmod(binDir, 0o755);
  const path = join(binDir, `oj-launch-${launcherHash()}`);
  const me = process.getuid?.();
  try {
    const st = lstatSync(path);
    if (st.isFile() && (me === undefined || st.uid === me) && (st.mode & 0o022) === 0) return { path };
    await fsp.rm(path, { force: true });
  } catch {
    // not built yet
  }
  const compilers = ["/usr/bin/gcc", "/usr/bin/cc"];
  const tmp = `${path}.tmp-${process.pid}`;
  const errors: string[] = [];
  for (const cc of compilers) {
    for (const link of [["-static"], []]) {
      try {
        await fsp.access(cc, constants.X_OK);
      } catch {
        errors.push(`${cc} not found`);
        break;
      }
      const p = Bun.spawn([cc, "-O2", "-Wall", ...link, "-x", "c", "-o", tmp, "-"], {
        stdin: new TextEncoder().encode(LAUNCHER_SOURCE),
        stdout: "ignore",
        stderr: "pipe",
        env: { PATH: "/usr/bin:/bin" },
      });
      const err = await new Response(p.stderr).text();
      if ((await p.exited) === 0) {
        await fsp.chmod(tmp, 0o755);
        await fsp.rename(tmp, path);
        return { path };
      }
      errors.push(`${cc} ${link.join(" ")}: ${err.trim().split("\n").slice(0, 3).join(" / ")}`);
      await fsp.rm(tmp, { force: true });
    }
  }
  return { why: `cannot build the launcher (${errors.join("; ")})` };
}
