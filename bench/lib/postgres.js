// A database of the benchmark's own on the PostgreSQL it started.
import pg from 'pg';

/** Creates the database `name` on the server of the superuser URL `url`; answers its URL. */
export async function createDatabase(url, name) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.href;
}
