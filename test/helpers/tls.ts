/** A self-signed certificate for 127.0.0.1 and localhost made with openssl (valid two days), for HTTPS test servers. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Writes cert.pem and key.pem (P-256) into `dir` and returns their paths. */
export function selfSignedCert(dir: string): { cert: string; key: string } {
  const args = '-x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout key.pem -out cert.pem -days 2 -subj /CN=localhost';
  execFileSync('openssl', ['req', ...args.split(' '), '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], {
    cwd: dir,
    stdio: 'ignore',
  });
  return { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
}
