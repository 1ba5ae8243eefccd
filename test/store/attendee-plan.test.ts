import { describe, expect, it } from 'vitest';
import { planAttendees, plannedAttendees } from '../../src/store/attendee-plan.js';

const none = { attending: () => undefined, person: () => ({ attendee_type: null, attendee_id: null }) };

describe('planAttendees', () => {
  it('folds ASCII case only, as the stores compare e-mails: É and é are two attendees', () => {
    const plan = planAttendees(
      [
        { email: 'Ann@x.example', name: 'Ann' },
        { email: 'ann@X.EXAMPLE', name: 'Again' },
        { email: 'ÉMILE@x.example', name: 'Émile' },
        { email: 'émile@x.example', name: 'émile' },
      ],
      none,
    );
    expect(plan.fresh.map((r) => r.name)).toEqual(['Ann', 'Émile', 'émile']);
  });

  it('answers an attending e-mail with its attendee and inserts only the fresh ones, in input order', () => {
    const existing = { id: 7, online_conference_id: 1, email: 'bo@x.example', name: 'Bo', attendee_type: null, attendee_id: null, joined_at: null, created_at: 't', updated_at: 't', deleted_at: null };
    const plan = planAttendees([{ email: 'new@x.example', name: 'New' }, { email: 'BO@x.example', name: 'Bo again' }], {
      attending: (email) => (email.toLowerCase() === 'bo@x.example' ? existing : undefined),
      person: () => ({ attendee_type: 'User', attendee_id: 3 }),
    });
    expect(plan.fresh).toEqual([{ email: 'new@x.example', name: 'New', attendee_type: 'User', attendee_id: 3 }]);
    const inserted = { ...existing, id: 8, email: 'new@x.example', name: 'New', attendee_type: 'User' as const, attendee_id: 3 };
    expect(plannedAttendees(plan, [inserted]).map((a) => a.id)).toEqual([8, 7]);
  });
});
