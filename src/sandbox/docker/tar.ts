import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { extract, pack } from 'tar-stream';

/**
 * A tar stream of a directory's contents (entries named `./…`), made by GNU tar because it
 * handles everything a Debian rootfs holds (hard links, device nodes, numeric owners).
 * A tar failure surfaces as an error on the stream.
 */
export function tarDirectory(dir: string): Readable {
  const child = spawn('tar', ['--numeric-owner', '-C', dir, '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  child.on('error', (error) => child.stdout.destroy(error));
  child.on('close', (code) => {
    if (code !== 0) child.stdout.destroy(new Error(`tar of ${dir} exited with ${code}: ${stderr.trim()}`));
  });
  return child.stdout;
}

/** An entry of {@link packEntries}: a file with its content, a folder, or a symbolic link. */
export type TarEntry =
  | { name: string; type: 'file'; mode: number; content: Buffer }
  | { name: string; type: 'directory'; mode: number }
  | { name: string; type: 'symlink'; mode: number; linkname: string };

/** A tar archive of `entries` (owned by root, in their order) in memory. */
export async function packEntries(entries: readonly TarEntry[]): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: unknown) => {
    chunks.push(chunk as Buffer);
  });
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  const mtime = new Date();
  for (const entry of entries) {
    const header = { name: entry.name, mode: entry.mode, uid: 0, gid: 0, mtime, type: entry.type };
    if (entry.type === 'file') archive.entry(header, entry.content);
    else if (entry.type === 'symlink') archive.entry({ ...header, linkname: entry.linkname });
    else archive.entry(header);
  }
  archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** A one-file tar archive (owned by root) in memory. */
export function packFile(name: string, content: Buffer, mode: number): Promise<Buffer> {
  return packEntries([{ name, type: 'file', mode, content }]);
}

/** The content of the first entry of a tar stream; throws when it is not a regular file. */
export async function readSingleFile(stream: NodeJS.ReadableStream, label: string): Promise<Buffer> {
  const entries = extract();
  stream.pipe(entries as unknown as NodeJS.WritableStream);
  for await (const entry of entries) {
    if (entry.header.type !== 'file') {
      entry.resume();
      throw new Error(`${label} is a ${entry.header.type}, not a regular file`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    // Nothing after the first entry matters; closing the response frees the connection.
    (stream as Readable).destroy?.();
    return Buffer.concat(chunks);
  }
  throw new Error(`${label}: empty archive`);
}
