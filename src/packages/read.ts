/**
 * A problem package of any format this judge reads, detected by its
 * descriptor: `problem.xml` is a Codeforces Polygon package
 * (./polygon/read.ts), otherwise the Kattis / ICPC format (`problem.yaml`,
 * ./format.ts). Both give the same ProblemPackage, so import, storage, export,
 * judging and verify take either.
 */
import type { PackageFiles } from "./files.ts";
import { readPackage, type ProblemPackage } from "./format.ts";
import { isPolygonPackage } from "./polygon/descriptor.ts";
import { readPolygonPackage } from "./polygon/read.ts";
import type { GenerationOptions } from "./polygon/generate.ts";

/**
 * Reads a package of either format.
 * @param generation a Polygon package's sandbox (its standard package's tests are generated there, its validators
 *   run there), ceilings and progress callback.
 * @throws PackageError naming the file (and line or element) of the first problem.
 */
export function readAnyPackage(files: PackageFiles, generation: Partial<GenerationOptions> = {}): Promise<ProblemPackage> {
  return isPolygonPackage(files) ? readPolygonPackage(files, generation) : readPackage(files);
}
