/**
 * A problem's statement images (from a package's statement folder): kept at
 * import, exported back, served to whoever may see the problem. Images only
 * (PNG, JPEG, GIF, WebP, SVG); an SVG is served with a policy that lets it run
 * no script even when opened on its own.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { problemAssets } from "../../db/schema.ts";
import type { Caller } from "../accounts/user.ts";
import { AppError } from "../errors.ts";
import { requireVisibleProblem } from "../problems/access.ts";
import { PackageError, type PackageFiles } from "./files.ts";

/** Content types by extension. */
export const ASSET_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
};
/**
 * One image, and all of a problem's, bytes. Stored as they are (not resized):
 * contest statements carry photographs and scanned figures of a few MiB
 * (NWERC/BAPC packages reach 3-5 MiB per image), served with a long cache.
 */
export const ASSET_MAX_BYTES = 8 * 1024 * 1024;
export const ASSETS_TOTAL_MAX_BYTES = 32 * 1024 * 1024;

export interface Asset {
  name: string;
  contentType: string;
  content: Uint8Array;
}

/**
 * The images of the statement folder the statement came from.
 * @throws PackageError for an image over the limits.
 */
export function statementAssets(files: PackageFiles, statementFile: string): Asset[] {
  const dir = statementFile.slice(0, statementFile.lastIndexOf("/") + 1);
  if (!dir) return [];
  const out: Asset[] = [];
  let total = 0;
  for (const [path, content] of files) {
    if (!path.startsWith(dir)) continue;
    const name = path.slice(dir.length);
    const ext = name.split(".").pop()!.toLowerCase();
    if (name.includes("/") || !ASSET_TYPES[ext]) continue;
    if (content.length > ASSET_MAX_BYTES) throw new PackageError(path, `image larger than ${ASSET_MAX_BYTES / (1024 * 1024)} MiB`);
    total += content.length;
    if (total > ASSETS_TOTAL_MAX_BYTES) throw new PackageError(path, `statement images larger than ${ASSETS_TOTAL_MAX_BYTES / (1024 * 1024)} MiB together`);
    out.push({ name, contentType: ASSET_TYPES[ext]!, content });
  }
  return out;
}

export async function saveAssets(db: Database, problemId: string, assets: Asset[]): Promise<void> {
  if (!assets.length) return;
  await db.insert(problemAssets).values(assets.map((a) => ({ problemId, name: a.name, contentType: a.contentType, content: Buffer.from(a.content) })));
}

export async function readAssets(db: Database, problemId: string): Promise<Asset[]> {
  const rows = await db.select().from(problemAssets).where(eq(problemAssets.problemId, problemId));
  return rows.map((r) => ({ name: r.name, contentType: r.contentType, content: new Uint8Array(r.content) }));
}

export async function readAsset(db: Database, problemId: string, name: string): Promise<Asset | null> {
  const [r] = await db.select().from(problemAssets).where(and(eq(problemAssets.problemId, problemId), eq(problemAssets.name, name))).limit(1);
  return r ? { name: r.name, contentType: r.contentType, content: new Uint8Array(r.content) } : null;
}

/**
 * One image of a problem's statement, for whoever may see the problem.
 * @throws AppError PROBLEM_NOT_FOUND (404) for the problem or the name.
 */
export async function readVisibleAsset(db: Database, user: Caller | null, problemId: string, name: string, now: number): Promise<{ contentType: string; base64: string }> {
  const row = await requireVisibleProblem(db, user, problemId, now);
  const asset = await readAsset(db, row.id, name);
  if (!asset) throw new AppError("PROBLEM_NOT_FOUND", { message: "No such image in the problem's statement" });
  return { contentType: asset.contentType, base64: Buffer.from(asset.content).toString("base64") };
}
