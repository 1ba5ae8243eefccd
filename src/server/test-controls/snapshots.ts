import { restoreSnapshot, saveSnapshot } from '../../media/snapshots.js';
import { checkSnapshotName, SnapshotError, type SnapshotStore } from '../../store/snapshots.js';
import { retryBusy } from '../busy.js';
import { HttpError, ValidationError } from '../errors.js';
import type { ControlRequest, ControlRoute } from './routes.js';

/** The store's snapshots; a store without them (a test fake) has no such route to offer. */
function snapshotsOf(request: ControlRequest): SnapshotStore {
  const snapshots = request.options.store.snapshots;
  if (!snapshots) throw new HttpError(404, 'This store keeps no snapshots.');
  return snapshots;
}

/**
 * Runs a snapshot operation: a busy database (another process writing) is retried as the API's
 * writes are, then 503; a refused snapshot is 400 on `name` (409 when the name is taken).
 */
async function run<T>(request: ControlRequest, work: (snapshots: SnapshotStore, name: string) => T | Promise<T>): Promise<T> {
  const snapshots = snapshotsOf(request);
  try {
    const name = request.params.name === undefined ? '' : checkSnapshotName(request.params.name);
    return await retryBusy(() => work(snapshots, name), request.options.now);
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    if (err.kind === 'exists') throw new HttpError(409, err.message);
    throw new ValidationError({ name: [err.message] });
  }
}

/** `{"replace": true}` replaces a snapshot of that name; the body is otherwise empty. */
function replaceOf(body: unknown): boolean {
  const replace = (body as { replace?: unknown } | null)?.replace;
  if (replace === undefined) return false;
  if (typeof replace !== 'boolean') throw new ValidationError({ replace: ['The replace field must be true or false.'] });
  return replace;
}

/** `serve --test-controls`: save, restore, list and delete snapshots of the whole instance (see media/snapshots.ts). */
export const SNAPSHOT_ROUTES: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/snapshots/{name}',
    summary: 'saves the whole instance as snapshot NAME (body {"replace": true} replaces one of that name)',
    handle: (request) => {
      const replace = replaceOf(request.body);
      return run(request, (snapshots, name) => saveSnapshot(snapshots, request.options.mediaDir, name, { now: new Date(request.options.now()), replace }));
    },
  },
  {
    method: 'POST',
    path: '/snapshots/{name}/restore',
    summary: 'puts snapshot NAME back: every tenant, the outboxes and the recording files',
    handle: (request) => run(request, (snapshots, name) => restoreSnapshot(snapshots, request.options.mediaDir, name)),
  },
  { method: 'GET', path: '/snapshots', summary: 'lists the snapshots', handle: (request) => run(request, (snapshots) => snapshots.list()) },
  {
    method: 'DELETE',
    path: '/snapshots/{name}',
    summary: 'deletes snapshot NAME',
    handle: (request) =>
      run(request, async (snapshots, name) => {
        if (!(await snapshots.remove(name))) throw new SnapshotError('not_found', `There is no snapshot named '${name}'.`);
        return { deleted: name };
      }),
  },
];
