// The client of `npm run bench:scale`, run pinned to another core than the server (bench/scale.js).
// argv[2] is a JSON file: { origin, headers, jobs }. Per job it prints one JSON line:
// - { kind: 'class', name, table, cold: [path], warm: path }: before each cold request one write
//   (a new row) to `table`; then the warm path once unmeasured and `cold.length` times measured.
//   Prints { name, cold: [ms], warm: [ms] }.
// - { kind: 'hol', probe: [path], noisy: [path], clients, seconds }: `clients` loops each sending a
//   write and then the next noisy path, back to back, while the probe paths are sent one at a time
//   (10 ms apart), stopping after `seconds` once 20 were answered. Prints { name, probe: [ms],
//   noisy: count of noisy lists answered meanwhile }.
// Every answer must be the expected status, else the client exits 1: a figure of failures means nothing.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const { origin, headers, jobs } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const EMPTY_WEEK = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
let writes = 0;

/** One request; resolves with the milliseconds to the whole answer, rejects on any status but `expect`. */
function request(method, path, body, expect) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${path}`, { method, agent, headers: payload ? { ...headers, 'content-type': 'application/json' } : headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - started;
        if (res.statusCode !== expect) reject(new Error(`${method} ${path}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`));
        else resolve(ms);
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A new row in `table` (users or customers), with an email no other write uses. */
function write(table) {
  const email = `bench.${process.pid}.${++writes}@write.example.com`;
  const body =
    table === 'users'
      ? { department_id: null, first_name: 'Bench', last_name: 'Write', email, timezone: 'UTC', work_hours: EMPTY_WEEK, role: 'Member', activate: true, is_silent: true }
      : { first_name: 'Bench', last_name: 'Write', email };
  return request('POST', `/api/public/v2.0/${table}`, body, 200);
}

const get = (path) => request('GET', path, undefined, 200);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function runClass(job) {
  const cold = [];
  for (const path of job.cold) {
    await write(job.table);
    cold.push(await get(path));
  }
  await get(job.warm);
  const warm = [];
  for (let i = 0; i < job.cold.length; i++) warm.push(await get(job.warm));
  return { name: job.name, cold, warm };
}

async function runHeadOfLine(job) {
  let done = false;
  let noisy = 0;
  let next = 0;
  const loops = Array.from({ length: job.clients }, async () => {
    while (!done) {
      await write('users');
      await get(job.noisy[next++ % job.noisy.length]);
      noisy++;
    }
  });
  // Let every noisy client have its first list under way.
  await pause(50);
  const probe = [];
  const deadline = performance.now() + job.seconds * 1000;
  for (const path of job.probe) {
    probe.push(await get(path));
    if (probe.length >= 20 && performance.now() > deadline) break;
    await pause(10);
  }
  done = true;
  await Promise.all(loops);
  return { name: job.name, probe, noisy };
}

try {
  for (const job of jobs) {
    const result = job.kind === 'hol' ? await runHeadOfLine(job) : await runClass(job);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  agent.destroy();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
