/**
 * A real LDAP directory for tests: Debian's `slapd` (OpenLDAP) with an mdb
 * database seeded by `slapadd`, started by the test on loopback ports for
 * ldap:// (StartTLS offered) and ldaps://, with a CA and server certificate
 * made by `openssl` at start. Access rules as a campus would set them:
 * passwords are only for binding; the service account and users read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export const LDAP_BASE = "dc=campus,dc=example";
export const LDAP_SERVICE_DN = `cn=judge-service,${LDAP_BASE}`;
export const LDAP_SERVICE_PASSWORD = "service-password";

export interface LdapPerson {
  uid: string;
  givenName: string;
  sn: string;
  mail: string;
  password: string;
  groups?: string[];
}

export interface LdapPeer {
  url: string;
  ldapsUrl: string;
  /** The CA that signed the server's certificate (PEM file). */
  caFile: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function run(cmd: string[], cwd?: string): void {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: exit ${r.exitCode}: ${r.stderr.toString()}`);
}

function ldif(people: LdapPerson[]): string {
  const groups = new Map<string, string[]>();
  for (const p of people) for (const g of p.groups ?? []) groups.set(g, [...(groups.get(g) ?? []), p.uid]);
  const entries = [
    `dn: ${LDAP_BASE}\nobjectClass: dcObject\nobjectClass: organization\ndc: campus\no: Campus`,
    `dn: ou=people,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ${LDAP_SERVICE_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: judge-service\nuserPassword: ${LDAP_SERVICE_PASSWORD}`,
    ...people.map(
      (p) =>
        `dn: uid=${p.uid},ou=people,${LDAP_BASE}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.givenName} ${p.sn}\ngivenName: ${p.givenName}\nsn: ${p.sn}\nmail: ${p.mail}\nuserPassword: ${p.password}`,
    ),
    ...[...groups].map(
      ([g, uids]) => `dn: cn=${g},ou=groups,${LDAP_BASE}\nobjectClass: groupOfNames\ncn: ${g}\n${uids.map((u) => `member: uid=${u},ou=people,${LDAP_BASE}`).join("\n")}`,
    ),
  ];
  return `${entries.join("\n\n")}\n`;
}

/**
 * Starts slapd with these people.
 * @throws Error when slapd or openssl is missing (the test command installs them) or slapd does not come up.
 */
export async function startLdapPeer(people: LdapPerson[]): Promise<LdapPeer> {
  const dir = mkdtempSync(join(tmpdir(), "oj-slapd-"));
  mkdirSync(join(dir, "db"));
  // A CA and a server certificate for 127.0.0.1.
  run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test campus CA", "-keyout", "ca.key", "-out", "ca.pem"], dir);
  run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr"], dir);
  writeFileSync(join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  run(["openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.pem"], dir);
  const conf = `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile ${dir}/slapd.pid
TLSCACertificateFile ${dir}/ca.pem
TLSCertificateFile ${dir}/server.pem
TLSCertificateKeyFile ${dir}/server.key
database mdb
maxsize 104857600
suffix "${LDAP_BASE}"
rootdn "cn=admin,${LDAP_BASE}"
rootpw admin-password
directory ${dir}/db
access to attrs=userPassword by anonymous auth by self write by * none
access to * by users read by * none
`;
  writeFileSync(join(dir, "slapd.conf"), conf);
  writeFileSync(join(dir, "seed.ldif"), ldif(people));
  run(["slapadd", "-f", join(dir, "slapd.conf"), "-l", join(dir, "seed.ldif")]);
  const [port, tlsPort] = [await freePort(), await freePort()];
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`;
  const proc: Subprocess = Bun.spawn(["slapd", "-f", join(dir, "slapd.conf"), "-h", `${url}/ ${ldapsUrl}/`, "-d", "0"], { stdout: "ignore", stderr: "pipe" });
  // Up when the port answers.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } })
      .then((s) => (s.end(), true))
      .catch(() => false);
    if (ok) break;
    if (proc.exitCode !== null || Date.now() > deadline) {
      throw new Error(`slapd did not start (exit ${proc.exitCode}): ${await new Response(proc.stderr as ReadableStream).text()}`);
    }
    await Bun.sleep(50);
  }
  return {
    url,
    ldapsUrl,
    caFile: join(dir, "ca.pem"),
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
