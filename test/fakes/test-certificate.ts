import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate in a file, for PUSH_CA_FILE. */
  caFile: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, generated per test file (never committed). */
export async function createTestCertificate(): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    days: 2,
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  } as never);
  const caFile = join(mkdtempSync(join(tmpdir(), 'notifyd-push-ca-')), 'ca.pem');
  writeFileSync(caFile, pems.cert);
  return { key: pems.private, cert: pems.cert, caFile };
}
