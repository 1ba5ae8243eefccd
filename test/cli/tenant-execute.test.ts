import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import { ApiError } from '../../src/client/errors.js';
import { execute, remainingChanges } from '../../src/cli/commands/tenant/execute.js';
import type { Change } from '../../src/cli/tenant/model.js';

/** A client answering each call from `answer` and recording the calls in order. */
function client(answer: (id: string, input: any) => unknown) {
  const calls: string[] = [];
  const api = {
    call: async (id: string, input: any) => {
      calls.push(`${id} ${JSON.stringify(input.params)}`);
      return answer(id, input);
    },
  } as unknown as ApiClient;
  return { api, calls };
}

const refused = () => new ApiError(409, 'Cannot exceed maximum attendee count.', 'POST', '/x', {}, undefined, [], 1, 'http://h');
const changes: Change[] = [
  { kind: 'attendee', action: 'remove', key: 'w o', conference: 'w', conference_id: 5, attendee_id: 9, email: 'o@x' },
  { kind: 'attendee', action: 'add', key: 'fresh g', conference: 'fresh', conference_id: null, body: { email: 'g@x', name: 'G' } },
  { kind: 'conference', action: 'create', key: 'fresh', body: { public_id: 'fresh' } },
  { kind: 'user', action: 'create', key: 'n@x', body: { email: 'n@x' } },
];

describe('executing a plan', () => {
  it('runs step by step (people, conferences, adds, removes), an add finding the conference created in the run', async () => {
    const { api, calls } = client((id) => ({ data: id === 'createConference' ? { id: 77 } : {} }));
    const outcomes = await execute(changes, api, { concurrency: 4, failFast: false });
    expect(calls).toEqual(['createUser {}', 'createConference {}', 'addConferenceAttendees {"online_conference_id":77}', 'removeConferenceAttendee {"online_conference_id":5,"online_conference_attendee_id":9}']);
    expect(outcomes.map((o) => o.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
  });

  it('a failure does not stop the others, its dependents are skipped; the rest is what failed or was skipped', async () => {
    const { api } = client((id) => {
      if (id === 'createConference') throw refused();
      return { data: {} };
    });
    const outcomes = await execute(changes, api, { concurrency: 1, failFast: false });
    expect(outcomes.map((o) => `${o.change.key} ${o.status}`)).toEqual(['w o applied', 'fresh g skipped', 'fresh failed', 'n@x applied']);
    expect(remainingChanges(outcomes).map((c) => c.key)).toEqual(['fresh g', 'fresh']);
  });

  it('--fail-fast stops at the first failure: everything after it is skipped', async () => {
    const { api, calls } = client((id) => {
      if (id === 'createUser') throw refused();
      return { data: { id: 1 } };
    });
    const outcomes = await execute(changes, api, { concurrency: 1, failFast: true });
    expect(calls).toEqual(['createUser {}']);
    expect(outcomes.map((o) => o.status)).toEqual(['skipped', 'skipped', 'skipped', 'failed']);
  });
});
