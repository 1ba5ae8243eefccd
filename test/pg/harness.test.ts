import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.js';
import { assertRunnable, startPostgres, unprivilegedUser } from './postgres-server.js';

/** The run's PostgreSQL: reachable, never as root, one database per file. */
const made: TestDatabase[] = [];
afterAll(async () => Promise.all(made.map((d) => d.drop())));

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

it('serves a database of its own to each caller, run by a user that is not root', async () => {
  const [one, two] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  made.push(one, two);
  await query(one.url, 'CREATE TABLE marker (id int)');
  expect(await query(one.url, "SELECT to_regclass('marker') IS NOT NULL AS present")).toEqual([{ present: true }]);
  expect(await query(two.url, "SELECT to_regclass('marker') IS NOT NULL AS present")).toEqual([{ present: false }]);
  const [{ data }] = await query<{ data: string }>(one.url, "SELECT current_setting('data_directory') AS data");
  const owner = (await import('node:fs')).statSync(data).uid;
  expect(owner).not.toBe(0);
  expect(owner).toBe(unprivilegedUser()?.uid ?? process.getuid?.());
  // Thrown away after the run: neither durable nor checksummed.
  expect(await query(one.url, "SELECT current_setting('fsync') AS fsync, current_setting('data_checksums') AS checksums")).toEqual([{ fsync: 'off', checksums: 'off' }]);
});

it('says how to fix it when the unprivileged user cannot reach the binaries', () => {
  const user = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'confctl-pg-unreachable-'));
  try {
    const binary = join(dir, 'initdb');
    writeFileSync(binary, '#!/bin/sh\nexit 0\n');
    chmodSync(binary, 0o755);
    // A parent only the owner may enter: as root, nobody cannot run what is inside.
    chmodSync(dir, 0o700);
    if (user) expect(() => assertRunnable(binary, user)).toThrow(/cannot run .*initdb.*chmod o\+rx/);
    else expect(() => assertRunnable(join(dir, 'missing'), undefined)).toThrow(/cannot run .*missing/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('starts a cluster with the server settings it is given (the scale benchmark gives max_wal_size)', async () => {
  const server = await startPostgres({ settings: { max_wal_size: '3GB', checkpoint_timeout: '17min' } });
  try {
    expect(await query(server.url, "SELECT current_setting('max_wal_size') AS wal, current_setting('checkpoint_timeout') AS timeout")).toEqual([{ wal: '3GB', timeout: '17min' }]);
  } finally {
    await server.stop();
  }
});
