/**
 * Two boxes connected by pipes: a program and its peer (an interactive
 * problem's submission and validator) run at the same time, each in its own
 * box, the program's stdout feeding the peer's stdin and the peer's stdout
 * feeding the program's stdin. Neither box sees anything of the other but the
 * bytes on the pipes.
 *
 * The runner keeps its own copy of each write end until the run that writes
 * it has ended, as problemtools' interactive runner does
 * (support/interactive/interactive.cc): the other side sees end-of-file only
 * after that run is over, so which one ended first is not a race between one
 * exiting and the other reading end-of-file and exiting too. The runner also
 * holds the read end of peer → program until both have ended, so the peer
 * never dies of SIGPIPE when the program exits early (a program that leaves
 * early may still be accepted); the program's own writes to a peer that has
 * ended do raise SIGPIPE (a caller may count that as the peer's decision).
 *
 * With `transcript`, the bytes go through the runner instead (relayed in both
 * directions) and are recorded, up to a limit: for the sample interaction a
 * student is shown. Direct pipes are used otherwise: no copy, no hop.
 */
import { closeSync, constants, openSync, promises as fsp, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeFifo } from "./backends/gate.ts";
import type { Box, RunRequest, RunResult } from "./types.ts";

/** A one-way pipe's two ends (descriptors of this process, blocking, close-on-exec). */
export interface Pipe {
  readFd: number;
  writeFd: number;
}

/**
 * Creates a pipe: a FIFO in a private directory, opened once for each end
 * (Bun opens every descriptor close-on-exec) and unlinked. Both ends block,
 * except the one named by `nonBlocking` (an end only this process uses, read
 * or written from the event loop).
 * @throws Error when the FIFO cannot be made or opened.
 */
export async function createPipe(nonBlocking?: "read" | "write"): Promise<Pipe> {
  const dir = await fsp.mkdtemp(join(tmpdir(), "oj-pipe-"));
  const path = join(dir, "p");
  const opened: number[] = [];
  const open = (flags: number) => {
    const fd = openSync(path, flags);
    opened.push(fd);
    return fd;
  };
  try {
    await makeFifo(path);
    // A non-blocking reader first, so opening the writer does not wait (a reader exists).
    const probe = open(constants.O_RDONLY | constants.O_NONBLOCK);
    const writeFd = open(constants.O_WRONLY | (nonBlocking === "write" ? constants.O_NONBLOCK : 0));
    if (nonBlocking === "read") return { readFd: probe, writeFd };
    const readFd = open(constants.O_RDONLY);
    closeSync(probe);
    return { readFd, writeFd };
  } catch (err) {
    for (const fd of opened) closeQuietly(fd);
    throw err;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** One side's run: its box and request (stdin and pipes are set here). */
export interface ConnectedRun {
  box: Box;
  req: Omit<RunRequest, "stdin" | "pipes">;
}

/** What was said, in order: each entry one side's bytes between the other's (UTF-8, lossy). */
export interface TranscriptEntry {
  from: "program" | "peer";
  text: string;
}

export interface Transcript {
  entries: TranscriptEntry[];
  /** More was said than `limitBytes`: the rest was relayed, not recorded. */
  truncated: boolean;
}

export interface ConnectedResult {
  program: RunResult;
  peer: RunResult;
  /** The peer's run ended before the program's (problemtools' "validator first"). */
  peerEndedFirst: boolean;
  transcript?: Transcript;
}

/**
 * Runs `program` and `peer` at the same time, connected by two pipes.
 * Each side's limits are its own (the caller bounds the wall time of both).
 * @param opts.transcript record the exchange, at most `limitBytes` of it.
 * @returns both results (their stdout is ""), which ended first, and the transcript when asked.
 * @throws Error only when the pipes cannot be made (a sandbox failure is a run's XX).
 */
export async function runConnected(
  program: ConnectedRun,
  peer: ConnectedRun,
  opts: { transcript?: { limitBytes: number } } = {},
): Promise<ConnectedResult> {
  return opts.transcript ? relayed(program, peer, opts.transcript.limitBytes) : direct(program, peer);
}

/** Awaits both runs, noting which ended first, calling `ended` for each as it ends. */
async function both(
  programRun: Promise<RunResult>,
  peerRun: Promise<RunResult>,
  ended: (side: "program" | "peer") => void,
): Promise<{ program: RunResult; peer: RunResult; peerEndedFirst: boolean }> {
  let first: "program" | "peer" | null = null;
  const mark = (side: "program" | "peer") => (r: RunResult) => {
    first ??= side;
    ended(side);
    return r;
  };
  const [p, q] = await Promise.all([programRun.then(mark("program")), peerRun.then(mark("peer"))]);
  return { program: p, peer: q, peerEndedFirst: first === "peer" };
}

async function direct(program: ConnectedRun, peer: ConnectedRun): Promise<ConnectedResult> {
  const toPeer = await createPipe();
  let toProgram: Pipe;
  try {
    toProgram = await createPipe();
  } catch (err) {
    closeQuietly(toPeer.readFd);
    closeQuietly(toPeer.writeFd);
    throw err;
  }
  const open = new Set([toPeer.readFd, toPeer.writeFd, toProgram.readFd, toProgram.writeFd]);
  const close = (...fds: number[]) => {
    for (const fd of fds) if (open.delete(fd)) closeQuietly(fd);
  };
  try {
    const programRun = program.box.run({ ...program.req, pipes: { stdinFd: toProgram.readFd, stdoutFd: toPeer.writeFd } });
    const peerRun = peer.box.run({ ...peer.req, pipes: { stdinFd: toPeer.readFd, stdoutFd: toProgram.writeFd } });
    return await both(programRun, peerRun, (side) => {
      // A side's write end closes once its run is over (the other then sees end-of-file); the
      // read end of peer → program stays open until both are over (the peer never gets SIGPIPE).
      if (side === "program") close(toPeer.writeFd);
      else close(toPeer.readFd, toProgram.writeFd);
    });
  } finally {
    close(...open);
  }
}

async function relayed(program: ConnectedRun, peer: ConnectedRun, limitBytes: number): Promise<ConnectedResult> {
  const pipes: Pipe[] = [];
  try {
    // The runner's own ends do not block: it reads with the event loop and writes as far as the pipe takes.
    for (const nb of ["read", "write", "read", "write"] as const) pipes.push(await createPipe(nb));
  } catch (err) {
    for (const p of pipes) closeQuietly(p.readFd), closeQuietly(p.writeFd);
    throw err;
  }
  const [fromProgram, toPeer, fromPeer, toProgram] = pipes as [Pipe, Pipe, Pipe, Pipe];
  const open = new Set(pipes.flatMap((p) => [p.readFd, p.writeFd]));
  const close = (...fds: number[]) => {
    for (const fd of fds) if (open.delete(fd)) closeQuietly(fd);
  };
  const transcript: Transcript = { entries: [], truncated: false };
  let recorded = 0;
  const record = (from: TranscriptEntry["from"], bytes: Uint8Array) => {
    if (transcript.truncated) return;
    const take = bytes.subarray(0, Math.max(0, limitBytes - recorded));
    if (take.length < bytes.length) transcript.truncated = true;
    recorded += take.length;
    if (take.length === 0) return;
    const text = new TextDecoder("utf-8", { fatal: false }).decode(take);
    const last = transcript.entries.at(-1);
    if (last && last.from === from) last.text += text;
    else transcript.entries.push({ from, text });
  };
  const ended = { program: Promise.withResolvers<void>(), peer: Promise.withResolvers<void>() };
  /** Copies `src` to `dst` until end-of-file, recording; closes `dst` once the writing side's run has ended too. */
  const relay = async (src: number, dst: number, from: TranscriptEntry["from"], writerEnded: Promise<void>) => {
    let dstOpen = true;
    try {
      const reader = Bun.file(src).stream().getReader();
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        record(from, chunk);
        let off = 0;
        // A full pipe: wait for the reader; a reader that has ended (EPIPE): keep draining, drop the bytes.
        while (dstOpen && off < chunk.length) {
          try {
            off += writeSync(dst, chunk, off);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === "EAGAIN") await Bun.sleep(1);
            else dstOpen = false;
          }
        }
      }
    } catch {
      // the source failed: treated as its end
    }
    await writerEnded;
    close(dst);
  };
  try {
    const programRun = program.box.run({ ...program.req, pipes: { stdinFd: toProgram.readFd, stdoutFd: fromProgram.writeFd } });
    const peerRun = peer.box.run({ ...peer.req, pipes: { stdinFd: toPeer.readFd, stdoutFd: fromPeer.writeFd } });
    const relays = [
      relay(fromProgram.readFd, toPeer.writeFd, "program", ended.program.promise),
      relay(fromPeer.readFd, toProgram.writeFd, "peer", ended.peer.promise),
    ];
    const result = await both(programRun, peerRun, (side) => {
      if (side === "program") close(fromProgram.writeFd, toProgram.readFd);
      else close(fromPeer.writeFd, toPeer.readFd);
      ended[side].resolve();
    });
    await Promise.all(relays);
    return { ...result, transcript };
  } finally {
    close(...open);
  }
}
