/**
 * Serves signed recording links (decisions §7):
 * `GET|HEAD /media/recordings/{id}/{file_name}?expires=&signature=`.
 *
 * Order of checks: method (405) → path shape (404) → signature and expiry (403
 * `Invalid signature.`) → the recording's file (404 `Resource object does not exist.`) → range
 * (206 / 416). The handler never reads a file into memory: it streams the selected bytes.
 * A multi-range request is answered with the whole file (200), never multipart.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MESSAGES } from '../contract/messages.js';
import { RECORDING_STATUS } from '../contract/resource-fields.js';
import type { Awaitable, ServiceStore } from '../store/port.js';
import { parseRange } from './range.js';
import { type SigningSecret, verifyRecordingSignature } from './signing.js';
import { instanceClock } from '../contract/clock.js';

/** The path prefix of recording links; the server routes every path under it here. */
export const RECORDING_PATH_PREFIX = '/media/recordings/';

/**
 * Maps a verified (recording id, file name) to the file's path relative to the media directory,
 * or undefined/null when there is no such recording or file.
 */
export type RecordingFileResolver = (
  recordingId: number,
  fileName: string,
) => string | null | undefined | Promise<string | null | undefined>;

export interface ServeRecordingOptions {
  /** Directory that holds every recording file; nothing outside it is ever served. */
  mediaDir: string;
  /** The instance's signing secret. */
  secret: SigningSecret;
  resolveFile: RecordingFileResolver;
  /**
   * Whether links to this recording were revoked (its conference was deleted, decisions §11):
   * such a link, even correctly signed and unexpired, answers 403 like a bad signature.
   */
  isRevoked?: (recordingId: number) => Awaitable<boolean>;
  /** The clock (a fixed instant or a function); defaults to the instance clock (src/contract/clock.ts). */
  now?: Date | (() => Date);
}

const CONTENT_TYPES: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.webm': 'video/webm',
};

/** The Content-Type served for a file name, by extension (`application/octet-stream` otherwise). */
export function contentTypeFor(fileName: string): string {
  return CONTENT_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * A resolver over the store for one tenant (the server resolves the tenant from the Host, which
 * is the host the link was issued for): a Finished, non-deleted recording whose `file_name`
 * equals the link's file name, served from its stored `path`.
 */
export function storeFileResolver(store: ServiceStore, tenantId: number): RecordingFileResolver {
  return async (recordingId, fileName) => {
    const recording = await store.recordings.get(tenantId, recordingId);
    if (!recording || recording.status !== RECORDING_STATUS.Finished || recording.file_name !== fileName) return undefined;
    return recording.path;
  };
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length });
  res.end(res.req?.method === 'HEAD' ? undefined : body);
}

/** True when `child` is strictly inside `root` (both absolute, normalised). */
function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** Opens the resolved file if it is a regular file inside `mediaDir` (symbolic links resolved). */
async function openInside(mediaDir: string, relative: string): Promise<FileHandle | undefined> {
  try {
    const root = await realpath(path.resolve(mediaDir));
    const candidate = path.resolve(root, relative);
    if (!isInside(root, candidate)) return undefined;
    const real = await realpath(candidate);
    if (!isInside(root, real)) return undefined;
    const handle = await open(real, 'r');
    const stat = await handle.stat();
    if (stat.isFile()) return handle;
    await handle.close();
    return undefined;
  } catch {
    return undefined;
  }
}

/** Parses `/media/recordings/{id}/{file_name}`; undefined when the path has another shape. */
function parsePath(pathname: string): { recordingId: number; fileName: string } | undefined {
  const m = /^\/media\/recordings\/([1-9][0-9]{0,15})\/([^/]+)$/.exec(pathname);
  if (!m) return undefined;
  const recordingId = Number(m[1]);
  if (!Number.isSafeInteger(recordingId)) return undefined;
  try {
    const fileName = decodeURIComponent(m[2]);
    return fileName.includes('/') || fileName.includes('\\') || fileName === '.' || fileName === '..' ? undefined : { recordingId, fileName };
  } catch {
    return undefined;
  }
}

/** Handles one request for a recording link; never rejects (unexpected failures answer 500). */
export async function serveRecording(req: IncomingMessage, res: ServerResponse, options: ServeRecordingOptions): Promise<void> {
  try {
    await serve(req, res, options);
  } catch {
    if (!res.headersSent) sendText(res, 500, MESSAGES.unexpected);
    else res.destroy();
  }
}

async function serve(req: IncomingMessage, res: ServerResponse, options: ServeRecordingOptions): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return sendText(res, 405, MESSAGES.methodNotAllowed, { Allow: 'GET, HEAD' });
  const url = new URL(req.url ?? '/', 'http://localhost');
  const target = parsePath(url.pathname);
  if (!target) return sendText(res, 404, MESSAGES.notFound);

  const now = typeof options.now === 'function' ? options.now() : (options.now ?? instanceClock().now());
  const valid = verifyRecordingSignature({
    ...target,
    expires: url.searchParams.get('expires'),
    signature: url.searchParams.get('signature'),
    secret: options.secret,
    now,
  });
  if (!valid || (await options.isRevoked?.(target.recordingId))) return sendText(res, 403, MESSAGES.invalidSignature);

  const relative = await options.resolveFile(target.recordingId, target.fileName);
  const handle = relative ? await openInside(options.mediaDir, relative) : undefined;
  if (!handle) return sendText(res, 404, MESSAGES.notFound);

  let streaming = false;
  try {
    const stat = await handle.stat();
    const size = stat.size;
    const etag = `W/"${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const lastModified = stat.mtime.toUTCString();
    const headers: Record<string, string | number> = {
      'Content-Type': contentTypeFor(target.fileName),
      'Accept-Ranges': 'bytes',
      'Last-Modified': lastModified,
      ETag: etag,
      'Cache-Control': 'private',
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(target.fileName)}`,
    };
    // If-Range naming another version of the file means: ignore Range, send it all.
    const ifRange = req.headers['if-range'];
    const rangeHeader = ifRange && ifRange !== etag && ifRange !== lastModified ? undefined : req.headers.range;
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      return sendText(res, 416, 'Range not satisfiable.', { 'Content-Range': `bytes */${size}`, 'Accept-Ranges': 'bytes' });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    headers['Content-Length'] = size === 0 ? 0 : end - start + 1;
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    streaming = true;
    await pipeline(handle.createReadStream({ start, end }), res);
  } finally {
    // createReadStream closes the handle itself when it ends or fails.
    if (!streaming) await handle.close();
  }
}
