import { describe, expect, it } from 'vitest';
import { COMPLETE_BODIES, incompleteKeys, needsCompleteBody } from '../../src/contract/complete-bodies.js';
import { OPERATION_META } from '../../src/contract/operations-meta.js';

describe('the hosted complete-body rules', () => {
  it('cover exactly PATCH /users/{id}, PATCH /online_conferences/{id} and POST /customers', () => {
    const ruled = OPERATION_META.filter((op) => needsCompleteBody(op.id)).map((op) => `${op.method} ${op.path}`);
    expect(ruled.sort()).toEqual(['PATCH /online_conferences/{online_conference_id}', 'PATCH /users/{user_id}', 'POST /customers']);
    expect(needsCompleteBody('updateCustomer')).toBe(false);
    for (const rule of Object.values(COMPLETE_BODIES)) expect(rule.notNull.every((k) => (rule.keys as readonly string[]).includes(k))).toBe(true);
  });

  it('a user update needs all seven keys; only department_id may be null', () => {
    const full = { department_id: null, first_name: 'A', last_name: 'B', email: 'a@b.io', timezone: 'UTC', work_hours: {}, role: 'Member' };
    expect(incompleteKeys('updateUser', full)).toEqual([]);
    expect(incompleteKeys('updateUser', { role: 'Manager' })).toEqual(['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours']);
    expect(incompleteKeys('updateUser', { ...full, timezone: null, work_hours: null, role: null })).toEqual(['timezone', 'work_hours', 'role']);
  });

  it('a conference update needs title and is_public, neither null', () => {
    expect(incompleteKeys('updateConference', { title: 'X', is_public: false })).toEqual([]);
    expect(incompleteKeys('updateConference', { title: 'X' })).toEqual(['is_public']);
    expect(incompleteKeys('updateConference', { title: null, is_public: true })).toEqual(['title']);
  });

  it('a customer create needs all six keys; middle name and contact number may be null, the address is an object', () => {
    const full = { first_name: 'A', middle_name: null, last_name: 'B', email: 'a@b.io', contact_number: null, address: {} };
    expect(incompleteKeys('createCustomer', full)).toEqual([]);
    expect(incompleteKeys('createCustomer', { first_name: 'A', last_name: 'B', email: 'a@b.io' })).toEqual(['middle_name', 'contact_number', 'address']);
    expect(incompleteKeys('createCustomer', { ...full, address: null })).toEqual(['address']);
  });
});
