/** The product's version, from package.json (health, backups' manifests, the binary's `version`). */
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
