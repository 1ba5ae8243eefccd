/**
 * Carries out a plan's changes step by step (src/tenant/plan.ts `phaseOf`): every change of a
 * step is sent, `concurrency` at a time (the client paces them by the rate-limit headers), before
 * the next step starts. A failed change does not stop the others, unless `failFast`; changes that
 * depend on a failed one (attendees of a conference not created) are skipped.
 */
import type { ApiClient } from '../../../client/client.js';
import type { OperationId } from '../../../contract/operations-meta.js';
import type { Change } from '../../tenant/model.js';
import { phaseOf } from '../../tenant/plan.js';
import { foldKey } from '../../tenant/values.js';

export type Outcome = { change: Change; status: 'applied' } | { change: Change; status: 'failed'; error: unknown } | { change: Change; status: 'skipped' };

export interface ExecuteOptions {
  concurrency: number;
  failFast: boolean;
  /** Called after each change with the counts so far. */
  onProgress?: (done: number, failed: number) => void;
}

/** The request of one change: operation, path parameters and body. */
function requestOf(change: Change, conferenceId: (publicId: string) => number | string | undefined): { id: OperationId; params: Record<string, string | number>; body?: unknown } | undefined {
  switch (change.kind) {
    case 'user':
    case 'customer': {
      const noun = change.kind === 'user' ? 'User' : 'Customer';
      if (change.action === 'create') return { id: `create${noun}`, params: {}, body: change.body };
      return { id: `update${noun}`, params: { [`${change.kind}_id`]: change.target_id }, body: change.body };
    }
    case 'conference':
      if (change.action === 'create') return { id: 'createConference', params: {}, body: change.body };
      if (change.action === 'update') return { id: 'updateConference', params: { online_conference_id: change.target_id }, body: change.body };
      return { id: 'deleteConference', params: { online_conference_id: change.target_id } };
    case 'attendee': {
      if (change.action === 'remove') return { id: 'removeConferenceAttendee', params: { online_conference_id: change.conference_id, online_conference_attendee_id: change.attendee_id } };
      const id = change.conference_id ?? conferenceId(change.conference);
      return id === undefined ? undefined : { id: 'addConferenceAttendees', params: { online_conference_id: id }, body: [change.body] };
    }
  }
}

/** Runs `changes` in order of their steps; answers one outcome per change, in the plan's order. */
export async function execute(changes: readonly Change[], client: ApiClient, options: ExecuteOptions): Promise<Outcome[]> {
  const outcomes = new Array<Outcome>(changes.length);
  /** Ids of conferences created in this run, by folded public id (a dry run's placeholder text). */
  const created = new Map<string, number | string>();
  let stop = false;
  let done = 0;
  let failed = 0;
  const phases = [...new Set(changes.map(phaseOf))].sort((a, b) => a - b);
  for (const phase of phases) {
    const indexes = changes.map((c, i) => (phaseOf(c) === phase ? i : -1)).filter((i) => i >= 0);
    let next = 0;
    const worker = async () => {
      for (let k = next++; k < indexes.length; k = next++) {
        const i = indexes[k];
        const change = changes[i];
        const request = stop ? undefined : requestOf(change, (publicId) => created.get(foldKey(publicId)));
        if (!request) {
          outcomes[i] = { change, status: 'skipped' };
        } else {
          try {
            const answer = (await client.call(request.id, { params: request.params, body: request.body })) as { data: { id?: number } | null };
            if (change.kind === 'conference' && change.action === 'create') created.set(foldKey(change.key), answer.data?.id ?? `ID_OF_${change.key}`);
            outcomes[i] = { change, status: 'applied' };
          } catch (error) {
            outcomes[i] = { change, status: 'failed', error };
            failed++;
            if (options.failFast) stop = true;
          }
        }
        options.onProgress?.(++done, failed);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, indexes.length)) }, worker));
  }
  return outcomes;
}

/**
 * The changes still to do after `outcomes`: failed and skipped ones. An attendee of a conference
 * created meanwhile finds it by public id when the rest is applied (src/tenant/stale.ts).
 */
export const remainingChanges = (outcomes: readonly Outcome[]): Change[] => outcomes.filter((o) => o.status !== 'applied').map((o) => o.change);
