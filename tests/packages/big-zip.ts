/**
 * Test helper: zips of hundreds of MiB unpacked, built in milliseconds. Each
 * distinct content is deflated once (natively) and its compressed bytes are
 * reused for every entry that holds it; the zip is written by hand (APPNOTE
 * 4.3: local headers, central directory, end record). `claimedSize` forges
 * the sizes the headers state, as a zip bomb does.
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface BigEntry {
  name: string;
  content: Uint8Array;
}

/**
 * @param entries the files; entries whose `content` is the same object share one deflate.
 * @param opts.claimedSize a size (bytes) every header states instead of the real one.
 * @returns the zip's bytes.
 */
export function bigZip(entries: BigEntry[], opts: { claimedSize?: number } = {}): Uint8Array {
  const deflated = new Map<Uint8Array, { data: Buffer; crc: number }>();
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    let d = deflated.get(e.content);
    if (!d) {
      d = { data: deflateRawSync(e.content, { level: 9 }), crc: crc32(e.content) >>> 0 };
      deflated.set(e.content, d);
    }
    const name = Buffer.from(e.name);
    const size = opts.claimedSize ?? e.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(d.crc, 14);
    local.writeUInt32LE(d.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(d.crc, 16);
    dir.writeUInt32LE(d.data.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, d.data);
    central.push(dir, name);
    offset += local.length + name.length + d.data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, dirBytes, end]));
}

/** `bytes` of text lines ("123456789\n" repeated), as a test's input or answer. */
export function textOfSize(bytes: number): Uint8Array {
  const out = Buffer.alloc(bytes, "123456789\n");
  out[bytes - 1] = 0x0a;
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
