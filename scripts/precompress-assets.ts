/**
 * `npm run build`, after `remix vite:build`: writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9)
 * copy beside each hashed script and stylesheet in `<build>/client/assets/`. The server sends the smallest one the
 * browser accepts (express-static-gzip in server/web.ts) instead of gzipping the same file on every request:
 * a phone downloads about a sixth less script, and the server spends no CPU on it.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildDirectory } from '../server/build-directory';

const assets = path.join(buildDirectory(process.env.BUILD_DIR), 'client', 'assets');
let raw = 0;
let br = 0;
for (const name of fs.readdirSync(assets)) {
  if (!/\.(js|css)$/.test(name)) continue;
  const file = path.join(assets, name);
  const content = fs.readFileSync(file);
  const brotli = zlib.brotliCompressSync(content, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  fs.writeFileSync(`${file}.br`, brotli);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
  raw += content.length;
  br += brotli.length;
}
console.log(`assets precompressed: ${(raw / 1024).toFixed(0)} KiB → ${(br / 1024).toFixed(0)} KiB brotli`);
