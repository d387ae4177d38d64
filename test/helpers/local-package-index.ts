import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';

/** A PEP 503 package index on disk holding one real pure-Python wheel. */
export interface LocalPackageIndex {
  /** The directory with `simple/` and `files/`. */
  root: string;
  /** `file://<root>/simple` */
  fileUrl: string;
  /** The distribution it serves and the module that wheel installs. */
  distribution: string;
  module: string;
}

// A wheel is a zip with the module and a dist-info; pip checks the layout, not RECORD's hashes.
const MAKE_WHEEL = `
import sys, zipfile
path, name, module = sys.argv[1:4]
info = f"{name.replace('-', '_')}-1.0.dist-info"
with zipfile.ZipFile(path, "w") as wheel:
    wheel.writestr(f"{module}.py", "ANSWER = 42\\n")
    wheel.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\\nName: {name}\\nVersion: 1.0\\n")
    wheel.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\\nGenerator: ssr-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    wheel.writestr(f"{info}/RECORD", f"{module}.py,,\\n{info}/METADATA,,\\n{info}/WHEEL,,\\n{info}/RECORD,,\\n")
`;

/** Build the index in a fresh temp dir (host python3 writes the wheel). */
export async function localPackageIndex(distribution = 'ssr-demo-pkg', module = 'ssr_demo_pkg'): Promise<LocalPackageIndex> {
  const root = mkdtempSync(join(tmpdir(), 'ssr-index-'));
  const wheel = `${distribution.replace(/-/g, '_')}-1.0-py3-none-any.whl`;
  await mkdir(join(root, 'files'));
  await mkdir(join(root, 'simple', distribution), { recursive: true });
  execFileSync('python3', ['-c', MAKE_WHEEL, join(root, 'files', wheel), distribution, module]);
  await writeFile(join(root, 'simple', 'index.html'), `<html><body><a href="${distribution}/">${distribution}</a></body></html>\n`);
  await writeFile(join(root, 'simple', distribution, 'index.html'), `<html><body><a href="../../files/${wheel}">${wheel}</a></body></html>\n`);
  return { root, fileUrl: `file://${root}/simple`, distribution, module };
}

/** Serve the index over real HTTP on 127.0.0.1 (directories answer with their index.html). */
export async function serveIndex(index: LocalPackageIndex): Promise<{ url: string; server: Server; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    let path = normalize(join(index.root, decodeURIComponent((request.url ?? '/').split('?')[0]!)));
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!path.startsWith(index.root) || !existsSync(path)) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': path.endsWith('.html') ? 'text/html' : 'application/octet-stream' });
    createReadStream(path).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/simple`, server, requests };
}
