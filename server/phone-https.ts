/**
 * Trying the app on a real phone (decision 0043): `npm start` sets LAN_HTTPS=on, and the server also answers HTTPS
 * on HTTPS_PORT (PORT + 443 unless set) with a self-signed certificate it makes once in DATA_DIR. The app's cookies
 * are `__Host-` and Secure, which a browser keeps only over HTTPS (or on localhost): over plain
 * http://<LAN address> every form would answer 403. The phone warns about the certificate once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

/** 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918): the addresses a home or office network hands out. */
export function isPrivateIPv4(address: string): boolean {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const [a, b] = parts as [number, number];
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/** This machine's private IPv4 addresses, the ones a phone on the same network can reach. */
export function lanAddresses(interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): string[] {
  const found = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((i) => i.family === 'IPv4' && !i.internal && isPrivateIPv4(i.address))
    .map((i) => i.address);
  return [...new Set(found)];
}

/** The port of the HTTPS listener: HTTPS_PORT, else PORT + 443 (3000 → 3443); none with LAN_HTTPS off. */
export function lanHttpsPort(config: { LAN_HTTPS: 'on' | 'off'; HTTPS_PORT?: number; PORT: number }): number | null {
  if (config.LAN_HTTPS !== 'on') return null;
  return config.HTTPS_PORT ?? (config.PORT === 0 ? 0 : config.PORT + 443);
}

const KEY_FILE = 'lan-https.key';
const CERT_FILE = 'lan-https.crt';

export interface TlsFiles {
  key: string;
  cert: string;
}

/**
 * The certificate in DATA_DIR, made at first start, and made again when it has expired or does not name one of
 * this machine's current addresses (a phone then warns about the name as well). Called once before the web
 * processes start, so that they only read it.
 */
export async function ensureLanCertificate(dataDir: string, addresses: readonly string[]): Promise<TlsFiles> {
  const keyPath = path.join(dataDir, KEY_FILE);
  const certPath = path.join(dataDir, CERT_FILE);
  if (fs.existsSync(keyPath) && fs.existsSync(certPath)) {
    const files = readLanCertificate(dataDir);
    const cert = new crypto.X509Certificate(files.cert);
    const current = new Date(cert.validTo).getTime() > Date.now() + 24 * 3600_000;
    if (current && addresses.every((ip) => cert.checkIP(ip) !== undefined)) return files;
  }
  const made = await generate([{ name: 'commonName', value: 'LotFX on this machine' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 365 * 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, ...addresses.map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(keyPath, made.private, { mode: 0o600 });
  fs.writeFileSync(certPath, made.cert);
  return { key: made.private, cert: made.cert };
}

export function readLanCertificate(dataDir: string): TlsFiles {
  return { key: fs.readFileSync(path.join(dataDir, KEY_FILE), 'utf8'), cert: fs.readFileSync(path.join(dataDir, CERT_FILE), 'utf8') };
}

/** What `npm start` prints after its ready line: where a phone on this network opens the app. */
export function lanLines(port: number, addresses: readonly string[]): string[] {
  if (addresses.length === 0)
    return [`HTTPS for a phone on port ${port}, but this machine has no private network address (10.x, 172.16–31.x, 192.168.x)`];
  return [
    ...addresses.map((ip) => `On a phone on this network: https://${ip}:${port}`),
    'The phone warns once that the certificate is not trusted (it was made on this machine): continue to the site.',
  ];
}
