/**
 * openssl-made certificates for HTTPS tests, written into a test's folder: a test CA (`ca.pem`, `ca.key`) and
 * certificates it signs or that sign themselves (`<name>.pem`, `<name>.key`). A negative `days` makes one that has
 * already expired.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CertificateSpec {
  name: string;
  /** `-subj`, e.g. `/CN=127.0.0.1`. */
  subject: string;
  days: number;
  /** The subjectAltName, e.g. `IP:127.0.0.1` or `DNS:practice.example.org`. */
  altName?: string;
  /** Not signed by the CA: its own issuer. */
  selfSigned?: boolean;
}

export function makeCertificates(dir: string, ca: { subject: string; days: number }, certificates: CertificateSpec[]): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const newKey = ['-newkey', 'rsa:2048', '-nodes'];
  ssl('req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', String(ca.days), '-subj', ca.subject);
  for (const c of certificates) {
    const ext = c.altName ? ['-addext', `subjectAltName=${c.altName}`] : [];
    if (c.selfSigned) {
      ssl(
        'req',
        '-x509',
        ...newKey,
        '-keyout',
        `${c.name}.key`,
        '-out',
        `${c.name}.pem`,
        '-days',
        String(c.days),
        '-subj',
        c.subject,
        ...ext,
      );
      continue;
    }
    writeFileSync(join(dir, `${c.name}.ext`), c.altName ? `subjectAltName=${c.altName}\n` : '');
    ssl('req', ...newKey, '-keyout', `${c.name}.key`, '-out', `${c.name}.csr`, '-subj', c.subject);
    ssl(
      'x509',
      '-req',
      '-in',
      `${c.name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${c.name}.pem`,
      '-days',
      String(c.days),
      '-extfile',
      `${c.name}.ext`,
    );
  }
}
