/**
 * A process lock in DATA_DIR: a file holding the pid of the server that owns
 * the data. Taken with O_EXCL; a lock whose pid is no longer alive is stale
 * and taken over. Restore refuses while a live server holds it.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync, constants } from "node:fs";

/** The web server's lock file, in DATA_DIR. */
export const SERVER_LOCK = "server.lock";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid holding the lock at `path`, or null when free or stale. */
export function lockHolder(path: string): number | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

/**
 * Takes the lock for this process (a stale one is replaced).
 * @returns a release function (also safe to call twice).
 * @throws Error naming the live holder when another process has it.
 */
export function takeLock(path: string, what: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (lockHolder(path) === null) rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = lockHolder(path);
      if (holder !== null) throw new Error(`${what}: another process (pid ${holder}) holds ${path}`);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`${what}: could not take ${path}`);
}
