import { describe, expect, it } from 'vitest';
import { faultDraw, faultFired, faultPicks, parseFaultRoute, parseFaultRule } from '../../src/contract/faults.js';

/** mulberry32 as it is usually written: a generator with state, one number per call. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('fault routes', () => {
  it('takes METHOD PATH of the operation table, * for any method, the API prefix and case of the method ignored', () => {
    expect(parseFaultRoute('POST /customers')).toEqual({ method: 'POST', path: '/customers' });
    expect(parseFaultRoute('patch /users/{user_id}')).toEqual({ method: 'PATCH', path: '/users/{user_id}' });
    expect(parseFaultRoute('* /online_conferences/{online_conference_id}')).toEqual({ method: '*', path: '/online_conferences/{online_conference_id}' });
    expect(parseFaultRoute('GET /api/public/v2.0/users/')).toEqual({ method: 'GET', path: '/users' });
  });

  it('refuses a route that matches no operation, saying what was meant where it can', () => {
    expect(parseFaultRoute('POST /customer')).toEqual({ error: "route 'POST /customer' matches no route: did you mean 'POST /customers'?" });
    expect(parseFaultRoute('PATCH /users/5')).toEqual({
      error: "route 'PATCH /users/5' matches no route: did you mean 'PATCH /users/{user_id}'? (a route names the path template, not one id)",
    });
    expect(parseFaultRoute('POST /users/{user_id}')).toEqual({
      error: "route 'POST /users/{user_id}' matches no route: /users/{user_id} takes GET, PATCH; did you mean 'GET /users/{user_id}'?",
    });
    expect(parseFaultRoute('PUT /customers')).toEqual({ error: "route 'PUT /customers' matches no route: the method must be one of GET, POST, PATCH, DELETE or *" });
    expect(parseFaultRoute('HEAD /users')).toEqual({ error: "route 'HEAD /users' matches no route: HEAD is answered as its GET, so name GET" });
    expect(parseFaultRoute('GET /healthz')).toEqual({ error: "route 'GET /healthz' matches no route: no operation has the path /healthz ('confctl api --help' lists them)" });
    expect(parseFaultRoute('/customers')).toEqual({ error: "route must be METHOD PATH, e.g. 'POST /customers' or '* /users/{user_id}', not '/customers'" });
  });
});

describe('fault rules', () => {
  it('reads flag text and JSON values alike, with rate 1 and seed 42 by default', () => {
    expect(parseFaultRule({ route: 'POST /customers', status: '503', rate: '0.2', latency: '2s', times: '3', seed: '7' })).toEqual({
      rule: { method: 'POST', path: '/customers', status: 503, rate: 0.2, latency_ms: 2000, times: 3, seed: 7 },
    });
    expect(parseFaultRule({ route: '* /customers', latency: '250ms' })).toEqual({
      rule: { method: '*', path: '/customers', status: null, rate: 1, latency_ms: 250, times: null, seed: 42 },
    });
    expect(parseFaultRule({ route: 'GET /users', status: 429, rate: 1, times: 1, seed: 4294967295 })).toMatchObject({ rule: { status: 429, times: 1, seed: 4294967295 } });
  });

  it('lists every problem, each naming its field', () => {
    expect(parseFaultRule({ route: 'GET /nope/nothing', status: '502', rate: '0', latency: '-1s', times: '0', seed: '-3' })).toEqual({
      errors: {
        route: ["route 'GET /nope/nothing' matches no route: no operation has the path /nope/nothing ('confctl api --help' lists them)"],
        status: ['status must be one of 400, 401, 404, 429, 500, 503, not \'502\''],
        latency: [expect.stringMatching(/^latency must be a positive duration: a number with ms, s, m or h/)],
        rate: ["rate must be a number above 0 and at most 1, not '0'"],
        times: ["times must be a whole number from 1, not '0'"],
        seed: ["seed must be a whole number from 0 to 4294967295, not '-3'"],
      },
    });
    expect(parseFaultRule({ route: 'GET /users' })).toEqual({ errors: { status: ['give a status (the fault answered), a latency (a delay before the normal answer), or both'] } });
    expect(parseFaultRule({ status: 503 })).toEqual({ errors: { route: ["route is required: METHOD PATH, e.g. 'POST /customers' or '* /users/{user_id}'"] } });
    expect(parseFaultRule({ route: 'GET /users', status: 503, rate: 1.5 })).toEqual({ errors: { rate: ['rate must be a number above 0 and at most 1, not 1.5'] } });
  });
});

describe('the seeded sequence', () => {
  it('is mulberry32: the n-th draw of a seed is the generator’s n-th number', () => {
    for (const seed of [0, 1, 42, 4294967295]) {
      const next = mulberry32(seed);
      for (let n = 1; n <= 200; n++) expect(faultDraw(seed, n)).toBe(next());
    }
  });

  it('picks about the rate of requests, always at rate 1, and the same ones for the same seed', () => {
    const picks = (seed: number, rate: number) => Array.from({ length: 10_000 }, (_, i) => faultPicks({ seed, rate }, i + 1));
    const share = picks(3, 0.2).filter(Boolean).length / 10_000;
    expect(share).toBeGreaterThan(0.18);
    expect(share).toBeLessThan(0.22);
    expect(picks(3, 0.2)).toEqual(picks(3, 0.2));
    expect(picks(4, 0.2)).not.toEqual(picks(3, 0.2));
    expect(picks(9, 1).every(Boolean)).toBe(true);
  });

  it('counts what a rule fired: times taken, else the picks among its matches', () => {
    const rule = { method: 'GET' as const, path: '/users', status: 503, latency_ms: null, seed: 5, rate: 0.5 };
    const expected = Array.from({ length: 40 }, (_, i) => faultPicks(rule, i + 1)).filter(Boolean).length;
    expect(faultFired({ ...rule, times: null, remaining: null, matched: 40 })).toBe(expected);
    expect(faultFired({ ...rule, times: 3, remaining: 1, matched: 40 })).toBe(2);
  });
});
