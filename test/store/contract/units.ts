import { describe, expect, it } from 'vitest';
import type { AttendeeInput } from '../../../src/contract/index.js';
import { NotFoundError, RuleViolation, UniqueViolation } from '../../../src/store/index.js';
import type { DataStore, RuleReason } from '../../../src/store/port.js';
import type { ConferenceInsert } from '../../../src/store/types.js';
import { conferenceWorld, type World } from './conferences.js';
import { asPostgres, asSqlite, eachStore, type Fixture, fixture, q, type StoreFactory } from './fixtures.js';

const page = { page_size: 100, page_number: 1 };
const guest = (email: string, name = email.split('@')[0]): AttendeeInput => ({ email, name });

/**
 * The tenant's invitations, oldest first. DataStore has no invitations reader (only
 * `units.createUser` writes them), so each backend is read its own way: SQLite's repo,
 * PostgreSQL's table.
 */
async function invitationsOf(store: DataStore, tenantId: number): Promise<{ user_id: number; email: string; created_at: string }[]> {
  if (store.backend === 'sqlite') return asSqlite(store).invitations.list(tenantId).map(({ user_id, email, created_at }) => ({ user_id, email, created_at }));
  const { rows } = await asPostgres(store).pool.query('SELECT user_id, email, created_at FROM invitations WHERE tenant_id = $1 ORDER BY id', [tenantId]);
  return rows;
}

/** What a refused unit of work threw: the class and, for rules and clashes, the reason or field. */
const refused = {
  rule: (reason: RuleReason) => expect.objectContaining({ name: 'RuleViolation', reason }),
  unique: (field: string) => expect.objectContaining({ name: 'UniqueViolation', field }),
};

/**
 * The units of work (port.ts `UnitsOfWork`): each all or nothing, its rules and uniqueness
 * checked inside it, also against concurrent calls on one store.
 */
export function unitContract(factory: StoreFactory) {
  describe(`${factory.name}: units of work`, () => {
    let store: DataStore;
    let fx: Fixture;
    let world: World;
    eachStore(factory, async (s) => {
      store = s;
      fx = await fixture(store);
      world = await conferenceWorld(store, fx);
    });

    /** A conference of the world's room (owned by Ada Lovelace) through `units.createConference`. */
    const create = (public_id: string, attendees: AttendeeInput[] = [], limit = 10, over: Partial<ConferenceInsert> = {}) =>
      store.units.createConference(fx.a, { online_conference_account_id: world.room.id, public_id, title: public_id, is_public: false, ...over }, attendees, limit);
    const attendees = async (conferenceId: number) => (await store.attendees.listByConference(conferenceId, page)).rows;
    const emails = async (conferenceId: number) => (await attendees(conferenceId)).map((a) => a.email);
    /** Every conference of tenant A, deleted ones too: what a refused unit must leave as it was. */
    const allConferences = async () => (await store.conferences.list(fx.a, q({ with_trashed: true }))).rows;

    describe('createUser', () => {
      it('inserts the user and, when asked, its invitation', async () => {
        const user = await store.units.createUser(fx.a, { first_name: 'Grace', last_name: 'Hopper', email: 'Grace@a.example', role: 'Member' }, true);
        expect(user).toMatchObject({ first_name: 'Grace', last_name: 'Hopper', email: 'Grace@a.example', role: 'Member', deleted_at: null });
        expect(await store.users.get(fx.a, user.id)).toEqual(user);
        const quiet = await store.units.createUser(fx.a, { first_name: 'Q', last_name: 'Uiet', email: 'quiet@a.example' }, false);
        expect(await invitationsOf(store, fx.a)).toEqual([{ user_id: user.id, email: 'Grace@a.example', created_at: user.created_at }]);
        expect(await invitationsOf(store, fx.b)).toEqual([]);
        expect(quiet.id).toBeGreaterThan(user.id);
      });

      it('refuses an e-mail of a live user of the tenant, ignoring case, and writes nothing', async () => {
        const before = await store.users.list(fx.a, q({ with_trashed: true }));
        await expect(async () => store.units.createUser(fx.a, { first_name: 'D', last_name: 'Up', email: 'LOVELACE@A.example' }, true)).rejects.toEqual(refused.unique('email'));
        await expect(async () => store.units.createUser(fx.a, { first_name: 'D', last_name: 'Up', email: 'alan@a.example' }, true)).rejects.toBeInstanceOf(UniqueViolation);
        expect(await store.users.list(fx.a, q({ with_trashed: true }))).toEqual(before);
        expect(await invitationsOf(store, fx.a)).toEqual([]);
        // A deleted user's e-mail and another tenant's are free.
        expect((await store.units.createUser(fx.a, { first_name: 'G', last_name: 'H', email: 'hopper@a.example' }, false)).email).toBe('hopper@a.example');
        expect((await store.units.createUser(fx.b, { first_name: 'A', last_name: 'T', email: 'alan@a.example' }, false)).email).toBe('alan@a.example');
      });

      it('lets one of concurrent creations of one e-mail win; the others clash', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, async (_, i) => store.units.createUser(fx.a, { first_name: 'Race', last_name: String(i), email: i % 2 ? 'RACE@a.example' : 'race@a.example' }, true)),
        );
        expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(refused.unique('email'));
        expect((await store.users.list(fx.a, q({ filter: { attribute: 'email', type: 'text', operator: 'Equal', value: 'race@a.example' } }))).total).toBe(1);
        expect((await invitationsOf(store, fx.a)).length).toBe(1);
      });
    });

    describe('createConference', () => {
      it('inserts the conference, its owner as the first attendee, then the attendees', async () => {
        const conf = await create('Launch', [guest('mia@c.example', 'Mia'), guest('x@x.example', 'X')], 3, { is_public: true, title: 'Launch day' });
        expect(conf).toMatchObject({ public_id: 'Launch', title: 'Launch day', is_public: true, is_occurred: false, backer_event_id: null, deleted_at: null });
        expect(await store.conferences.get(fx.a, conf.id)).toEqual(conf);
        const rows = await attendees(conf.id);
        expect(rows.map((a) => [a.email, a.name, a.attendee_type, a.attendee_id])).toEqual([
          ['lovelace@a.example', 'Ada Lovelace', 'User', fx.users.lovelace.id],
          ['mia@c.example', 'Mia', 'Customer', fx.customers.paris.id],
          ['x@x.example', 'X', null, null],
        ]);
        expect(rows.every((a) => a.online_conference_id === conf.id && a.deleted_at === null)).toBe(true);
      });

      it('owner of a customer\'s account: a Customer attendee; the owner\'s e-mail in the request is not added twice', async () => {
        const room = await store.conferenceAccounts.insert(fx.a, { owner_type: 'Customer', owner_id: fx.customers.berlin.id, name: 'Emma' });
        const conf = await store.units.createConference(fx.a, { online_conference_account_id: room.id, public_id: 'C-1', title: 'C', is_public: false }, [guest('EMMA@c.example', 'Again')], 1);
        expect((await attendees(conf.id)).map((a) => [a.email, a.name, a.attendee_type, a.attendee_id])).toEqual([['emma@c.example', 'Emma Rose Müller', 'Customer', fx.customers.berlin.id]]);
      });

      it('an account whose owner is deleted: no owner attendee', async () => {
        const room = await store.conferenceAccounts.insert(fx.a, { owner_type: 'User', owner_id: fx.users.deleted.id, name: 'Gone' });
        const conf = await store.units.createConference(fx.a, { online_conference_account_id: room.id, public_id: 'G-1', title: 'G', is_public: false }, [guest('x@x.example')], 1);
        expect(await emails(conf.id)).toEqual(['x@x.example']);
      });

      it('refuses a public_id of any of the tenant\'s conferences, deleted ones too, case-sensitively; writes nothing', async () => {
        const before = await allConferences();
        await expect(async () => create('Sync-1', [guest('x@x.example')])).rejects.toEqual(refused.unique('public_id'));
        expect(await allConferences()).toEqual(before);
        const gone = await create('Gone');
        await store.units.deleteConference(fx.a, gone.id);
        await expect(async () => create('Gone')).rejects.toBeInstanceOf(UniqueViolation);
        expect((await create('sync-1')).public_id).toBe('sync-1');
        expect((await allConferences()).length).toBe(before.length + 2);
      });

      it('refuses an event that already backs a conference; writes nothing', async () => {
        const before = await allConferences();
        await expect(async () => create('Other', [], 10, { backer_event_id: world.event.id })).rejects.toEqual(refused.unique('backer_event_id'));
        expect(await allConferences()).toEqual(before);
        expect((await store.events.get(fx.a, world.cal.id, world.event.id))!.online_conference).toEqual(world.conf);
      });

      it('refuses more attendees than the limit, the owner included, and writes nothing', async () => {
        const event = await store.events.insert(fx.a, { calendar_id: world.cal.id, title: 'Big', start: '2026-02-01T09:00:00Z', end: '2026-02-01T10:00:00Z' });
        const before = await allConferences();
        const three = [guest('x1@x.example'), guest('x2@x.example'), guest('X1@X.example'), guest('x3@x.example')];
        await expect(async () => create('Big', three, 3, { backer_event_id: event.id })).rejects.toEqual(refused.rule('maxAttendees'));
        await expect(async () => create('Big', three, 3, { backer_event_id: event.id })).rejects.toBeInstanceOf(RuleViolation);
        expect(await allConferences()).toEqual(before);
        expect(await store.conferences.publicIdTaken(fx.a, 'Big')).toBe(false);
        expect(await store.conferences.backerEventTaken(fx.a, event.id)).toBe(false);
        // Three distinct e-mails and the owner fit a limit of four.
        const conf = await create('Big', three, 4, { backer_event_id: event.id });
        expect(await emails(conf.id)).toEqual(['lovelace@a.example', 'x1@x.example', 'x2@x.example', 'x3@x.example']);
        expect((await store.events.get(fx.a, world.cal.id, event.id))!.online_conference).toEqual(conf);
      });

      it('lets one of concurrent creations of one public_id win; the others clash', async () => {
        const results = await Promise.allSettled(Array.from({ length: 8 }, async (_, i) => create('Race', [guest(`r${i}@x.example`)])));
        expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(refused.unique('public_id'));
        const race = (await allConferences()).filter((c) => c.public_id === 'Race');
        expect(race.length).toBe(1);
        expect((await attendees(race[0].id)).length).toBe(2);
      });
    });

    describe('addAttendees', () => {
      it('adds each e-mail once: repeated or case-different e-mails and those already attending answer their attendee', async () => {
        const conf = await create('Dedup', [guest('x@x.example', 'X')]);
        const [owner, x] = await attendees(conf.id);
        const added = await store.units.addAttendees(fx.a, conf.id, [guest('y@x.example', 'Y'), guest('X@X.EXAMPLE', 'Other X'), guest('Y@x.example', 'Y2'), guest('z@x.example', 'Z')], 10);
        expect(added.map((a) => [a.email, a.name])).toEqual([['y@x.example', 'Y'], ['x@x.example', 'X'], ['z@x.example', 'Z']]);
        expect(added[1]).toEqual(x);
        expect(await attendees(conf.id)).toEqual([owner, x, added[0], added[2]]);
        // Nothing new: answered, nothing written, and the limit does not apply.
        expect(await store.units.addAttendees(fx.a, conf.id, [guest('Z@x.example')], 1)).toEqual([added[2]]);
        expect(await store.attendees.count(conf.id)).toBe(4);
      });

      it('matches each new e-mail to the tenant\'s live user first, then customer, ignoring case', async () => {
        await store.customers.insert(fx.a, { first_name: 'Alan', last_name: 'Customer', email: 'alan@a.example' });
        const hopper = await store.customers.insert(fx.a, { first_name: 'Grace', last_name: 'Customer', email: 'hopper@a.example' });
        await store.users.insert(fx.b, { first_name: 'Only', last_name: 'B', email: 'only@b.example' });
        const conf = await create('People');
        const added = await store.units.addAttendees(fx.a, conf.id, [
          guest('Alan@A.Example'), // user Turing (and a customer of that e-mail)
          guest('MIA@c.example'), // customer Mia
          guest('Hopper@a.example'), // deleted user, live customer
          guest('gone@c.example'), // deleted customer
          guest('only@b.example'), // another tenant's user
        ], 10);
        expect(added.map((a) => [a.email, a.attendee_type, a.attendee_id])).toEqual([
          ['Alan@A.Example', 'User', fx.users.turing.id],
          ['MIA@c.example', 'Customer', fx.customers.paris.id],
          ['Hopper@a.example', 'Customer', hopper.id],
          ['gone@c.example', null, null],
          ['only@b.example', null, null],
        ]);
      });

      it('counts live attendees, the owner included, against the limit; all or nothing', async () => {
        const conf = await create('Limit', [guest('x1@x.example')], 3);
        const before = await attendees(conf.id);
        await expect(async () => store.units.addAttendees(fx.a, conf.id, [guest('x2@x.example'), guest('x3@x.example')], 3)).rejects.toEqual(refused.rule('maxAttendees'));
        expect(await attendees(conf.id)).toEqual(before);
        expect(await store.attendees.findByEmail(conf.id, 'x2@x.example')).toBeUndefined();
        // An attending e-mail beside a new one: only the new one counts.
        await store.units.addAttendees(fx.a, conf.id, [guest('X1@x.example'), guest('x2@x.example')], 3);
        expect(await store.attendees.count(conf.id)).toBe(3);
        await expect(async () => store.units.addAttendees(fx.a, conf.id, [guest('x3@x.example')], 3)).rejects.toBeInstanceOf(RuleViolation);
        // A removed attendee no longer counts.
        await store.units.removeAttendee(fx.a, conf.id, before[1].id);
        expect((await store.units.addAttendees(fx.a, conf.id, [guest('x3@x.example')], 3)).map((a) => a.email)).toEqual(['x3@x.example']);
        expect(await emails(conf.id)).toEqual(['lovelace@a.example', 'x2@x.example', 'x3@x.example']);
      });

      it('another tenant\'s or a deleted conference does not exist; nothing written', async () => {
        const conf = await create('Mine');
        await expect(async () => store.units.addAttendees(fx.b, conf.id, [guest('x@x.example')], 10)).rejects.toBeInstanceOf(NotFoundError);
        expect(await store.attendees.count(conf.id)).toBe(1);
        await store.units.deleteConference(fx.a, conf.id);
        await expect(async () => store.units.addAttendees(fx.a, conf.id, [guest('x@x.example')], 10)).rejects.toBeInstanceOf(NotFoundError);
        expect(await store.attendees.count(conf.id)).toBe(1);
      });

      it('20 concurrent additions of one new e-mail each never pass a limit of 6', async () => {
        const conf = await create('Crowd', [], 6);
        const results = await Promise.allSettled(Array.from({ length: 20 }, async (_, i) => store.units.addAttendees(fx.a, conf.id, [guest(`p${i}@x.example`)], 6)));
        expect(await store.attendees.count(conf.id)).toBe(6);
        expect(results.filter((r) => r.status === 'fulfilled').length).toBe(5);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(refused.rule('maxAttendees'));
        expect((await attendees(conf.id)).length).toBe(6);
      });

      // Two stores on one database: two serve processes on one SQLite file, two instances on one PostgreSQL.
      it.runIf(factory.attach !== undefined)('the limit also holds for additions through two stores on one database', async () => {
        const conf = await create('Two', [], 6);
        const other = await factory.attach!(store);
        try {
          const stores = [store, other];
          const results = await Promise.allSettled(Array.from({ length: 20 }, async (_, i) => stores[i % 2].units.addAttendees(fx.a, conf.id, [guest(`p${i}@x.example`)], 6)));
          expect(results.filter((r) => r.status === 'fulfilled').length).toBe(5);
          for (const r of results) if (r.status === 'rejected') expect(r.reason).toEqual(refused.rule('maxAttendees'));
          expect(await store.attendees.count(conf.id)).toBe(6);
          expect(await other.attendees.count(conf.id)).toBe(6);
        } finally {
          await other.close();
        }
      });

      it('concurrent additions of one e-mail add it once', async () => {
        const conf = await create('Same');
        const results = await Promise.all(Array.from({ length: 10 }, async (_, i) => store.units.addAttendees(fx.a, conf.id, [guest(i % 2 ? 'same@x.example' : 'SAME@x.example')], 10)));
        expect(new Set(results.map(([a]) => a.id)).size).toBe(1);
        expect(await store.attendees.count(conf.id)).toBe(2);
      });
    });

    describe('deleteConference', () => {
      it('soft-deletes a conference not started, or ended; it keeps its public_id', async () => {
        const planned = await create('Planned');
        const deleted = await store.units.deleteConference(fx.a, planned.id);
        expect(deleted).toMatchObject({ id: planned.id, public_id: 'Planned' });
        expect(deleted.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(await store.conferences.get(fx.a, planned.id)).toBeUndefined();
        expect(await store.conferences.publicIdTaken(fx.a, 'Planned')).toBe(true);
        const ended = await create('Ended', [], 10, { started_at: '2026-01-01T09:00:00Z', ended_at: '2026-01-01T10:00:00Z' });
        expect((await store.units.deleteConference(fx.a, ended.id)).deleted_at).not.toBeNull();
        await expect(async () => store.units.deleteConference(fx.a, ended.id)).rejects.toBeInstanceOf(NotFoundError);
      });

      it('refuses a conference in progress; another tenant\'s does not exist; nothing written', async () => {
        const running = await create('Running', [], 10, { started_at: '2026-01-01T09:00:00Z' });
        await expect(async () => store.units.deleteConference(fx.a, running.id)).rejects.toEqual(refused.rule('conferenceInProgress'));
        await expect(async () => store.units.deleteConference(fx.b, running.id)).rejects.toBeInstanceOf(NotFoundError);
        expect(await store.conferences.get(fx.a, running.id)).toEqual(running);
        await expect(async () => store.units.deleteConference(fx.a, 999_999)).rejects.toBeInstanceOf(NotFoundError);
      });
    });

    describe('removeAttendee', () => {
      it('soft-deletes a live attendee; its e-mail may attend again under a new id', async () => {
        const conf = await create('Remove', [guest('x@x.example')]);
        const [, x] = await attendees(conf.id);
        const removed = await store.units.removeAttendee(fx.a, conf.id, x.id);
        expect(removed).toMatchObject({ id: x.id, email: 'x@x.example' });
        expect(removed.deleted_at).not.toBeNull();
        expect(await store.attendees.get(conf.id, x.id)).toBeUndefined();
        expect(await emails(conf.id)).toEqual(['lovelace@a.example']);
        await expect(async () => store.units.removeAttendee(fx.a, conf.id, x.id)).rejects.toBeInstanceOf(NotFoundError);
        const [again] = await store.units.addAttendees(fx.a, conf.id, [guest('X@x.example')], 10);
        expect(again.id).toBeGreaterThan(x.id);
      });

      it('refuses the account\'s owner and attendees of an ended conference; nothing written', async () => {
        const conf = await create('Rules', [guest('x@x.example')]);
        const [owner, x] = await attendees(conf.id);
        await expect(async () => store.units.removeAttendee(fx.a, conf.id, owner.id)).rejects.toEqual(refused.rule('ownerNotRemovable'));
        await store.conferences.update(fx.a, conf.id, { started_at: '2026-01-01T09:00:00Z' });
        // In progress: attendees may still be removed (only deletion waits for the end).
        await store.units.removeAttendee(fx.a, conf.id, x.id);
        const [y] = await store.units.addAttendees(fx.a, conf.id, [guest('y@x.example')], 10);
        await store.conferences.update(fx.a, conf.id, { ended_at: '2026-01-01T10:00:00Z' });
        await expect(async () => store.units.removeAttendee(fx.a, conf.id, y.id)).rejects.toEqual(refused.rule('conferenceEnded'));
        expect(await attendees(conf.id)).toEqual([owner, y]);
      });

      it('another tenant\'s conference, or another conference\'s attendee, does not exist', async () => {
        const one = await create('One', [guest('x@x.example')]);
        const two = await create('Two');
        const [, x] = await attendees(one.id);
        await expect(async () => store.units.removeAttendee(fx.b, one.id, x.id)).rejects.toBeInstanceOf(NotFoundError);
        await expect(async () => store.units.removeAttendee(fx.a, two.id, x.id)).rejects.toBeInstanceOf(NotFoundError);
        expect(await store.attendees.get(one.id, x.id)).toEqual(x);
      });
    });

    it('never hands out a soft-deleted row\'s id again', async () => {
      const first = await create('First', [guest('x@x.example')]);
      const [, x] = await attendees(first.id);
      await store.units.removeAttendee(fx.a, first.id, x.id);
      await store.units.deleteConference(fx.a, first.id);
      const second = await create('Second', [guest('x@x.example')]);
      expect(second.id).toBeGreaterThan(first.id);
      const ids = (await attendees(second.id)).map((a) => a.id);
      expect(Math.min(...ids)).toBeGreaterThan(x.id);
    });

    describe('change tokens', () => {
      it('changeToken holds still without writes and moves after each write', async () => {
        const t0 = await store.changeToken();
        expect(await store.changeToken()).toBe(t0);
        await store.users.insert(fx.a, { first_name: 'N', last_name: 'New', email: 'new@a.example' });
        const t1 = await store.changeToken();
        expect(t1).not.toBe(t0);
        const conf = await create('Tokens');
        const t2 = await store.changeToken();
        expect(t2).not.toBe(t1);
        await store.units.addAttendees(fx.a, conf.id, [guest('x@x.example')], 10);
        const t3 = await store.changeToken();
        expect(t3).not.toBe(t2);
        await store.units.deleteConference(fx.a, conf.id);
        expect(await store.changeToken()).not.toBe(t3);
      });

      it('tenancyToken moves after each write of tenants, domains or keys', async () => {
        const tokens = [await store.tenancyToken()];
        const moved = async () => {
          const t = await store.tenancyToken();
          expect(tokens).not.toContain(t);
          tokens.push(t);
        };
        const c = await store.tenants.create('c.example');
        await moved();
        await store.tenants.addAlias(c.id, 'alias.c.example');
        await moved();
        const { record } = await store.keys.create({ tenant_id: c.id, name: 'k', permissions: ['*'] });
        await moved();
        await store.keys.revoke(record.id);
        await moved();
        expect(await store.tenancyToken()).toBe(tokens.at(-1));
        if (store.backend === 'postgres') {
          // PostgreSQL moves it with those tables only. (SQLite's also moves with every other
          // connection's commit, PRAGMA data_version, so "only" is not its contract.)
          await store.users.insert(fx.a, { first_name: 'N', last_name: 'New', email: 'new@a.example' });
          await store.units.addAttendees(fx.a, world.conf.id, [guest('x@x.example')], 10);
          expect(await store.tenancyToken()).toBe(tokens.at(-1));
        }
      });

      it.runIf(factory.attach !== undefined)('both move with another store\'s writes on the same database', async () => {
        const other = await factory.attach!(store);
        try {
          const change = await store.changeToken();
          await other.users.insert(fx.a, { first_name: 'N', last_name: 'New', email: 'new@a.example' });
          const changed = await store.changeToken();
          expect(changed).not.toBe(change);
          expect((await store.users.findByEmail(fx.a, 'NEW@a.example'))?.last_name).toBe('New');
          const tenancy = await store.tenancyToken();
          const { record } = await other.keys.create({ tenant_id: fx.a, name: 'k', permissions: ['*'] });
          expect(await store.tenancyToken()).not.toBe(tenancy);
          expect(await store.changeToken()).not.toBe(changed);
          expect(await store.keys.get(record.id)).toEqual(record);
        } finally {
          await other.close();
        }
      });
    });
  });
}
