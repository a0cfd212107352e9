/**
 * `bun run lti -- ...` with the server's configuration (DATABASE_URL, ...):
 *
 *   add --name N --issuer URL --client-id ID --deployment ID [--deployment ID]
 *       --auth-url URL --token-url URL --jwks-url URL      register a platform
 *   list                                                  platforms and deployments
 *   remove ID                                             unregister a platform
 *   rotate-key                                            a new tool key (the old stays published a week)
 * Inputs are checked by the same zod schema as the admin page's.
 */
import { parseArgs } from "node:util";
import { migrateDatabase, openDatabase } from "../../db/index.ts";
import { exitOnConfigError, loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { rotateKey } from "./keys.ts";
import { addPlatform, listPlatforms, platformInput, removePlatform } from "./registry.ts";

export const LTI_USAGE = `usage: bun run lti -- add --name NAME --issuer URL --client-id ID --deployment ID [--deployment ID ...] --auth-url URL --token-url URL --jwks-url URL [--trust-email]
       bun run lti -- list | remove ID | rotate-key`;

/** @returns the exit code. */
export async function ltiCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!["add", "list", "remove", "rotate-key"].includes(command ?? "") || (command === "remove" && !rest[0])) {
    console.error(LTI_USAGE);
    return 1;
  }
  let input: ReturnType<typeof platformInput.parse> | null = null;
  if (command === "add") {
    const { values } = parseArgs({
      args: rest,
      options: {
        name: { type: "string" },
        issuer: { type: "string" },
        "client-id": { type: "string" },
        deployment: { type: "string", multiple: true },
        "auth-url": { type: "string" },
        "token-url": { type: "string" },
        "jwks-url": { type: "string" },
        "trust-email": { type: "boolean" },
      },
      strict: true,
    });
    const parsed = platformInput.safeParse({
      name: values.name,
      issuer: values.issuer,
      clientId: values["client-id"],
      deploymentIds: values.deployment ?? [],
      authUrl: values["auth-url"],
      tokenUrl: values["token-url"],
      jwksUrl: values["jwks-url"],
      trustEmail: values["trust-email"] ?? false,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) console.error(`lti: ${issue.path.join(".") || "input"}: ${issue.message}`);
      return 1;
    }
    input = parsed.data;
  }
  const config = await exitOnConfigError(() => loadConfig(process.env));
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await migrateDatabase(db);
    if (command === "add") {
      const p = await addPlatform(db, input!);
      console.log(
        `lti: registered ${p.name} (id ${p.id}) for ${p.issuer}, client ${p.clientId}, deployments ${p.deploymentIds.join(", ")}` +
          (p.trustEmail ? "; its email addresses are trusted (linking, staff invitations)" : "; its email addresses are not trusted (--trust-email to change)"),
      );
      return 0;
    }
    if (command === "remove") {
      if (!(await removePlatform(db, rest[0]!))) {
        console.error(`lti: no platform with id ${rest[0]}`);
        return 1;
      }
      console.log(`lti: removed ${rest[0]}`);
      return 0;
    }
    if (command === "rotate-key") {
      console.log(`lti: the tool now signs with key ${await rotateKey(db)}; the previous key stays in /api/lti/jwks for a week`);
      return 0;
    }
    const list = await listPlatforms(db);
    if (!list.length) console.log("lti: no platform registered (add one with: bun run lti -- add ...)");
    for (const p of list) console.log(`${p.id}\t${p.name}\t${p.issuer}\tclient ${p.clientId}\tdeployments ${p.deploymentIds.join(",")}`);
    return 0;
  } catch (err) {
    console.error(`lti: ${err instanceof AppError || err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    client.close();
  }
}
