/**
 * LMS platforms (LTI 1.3) from the command line (src/lti/cli.ts):
 *
 *   bun run lti -- add --name N --issuer URL --client-id ID --deployment ID --auth-url URL --token-url URL --jwks-url URL
 *   bun run lti -- list | remove ID | rotate-key
 */
import { ltiCli } from "../src/lti/cli.ts";

process.exit(await ltiCli(process.argv.slice(2)));
