import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createStreams, type Streams } from '../../src/cli/context.js';
import { listWriter } from '../../src/cli/output/index.js';
import { writeChunk } from '../../src/cli/output/sink.js';
import { rowProgress, rowsLine } from '../../src/cli/progress/rows.js';
import type { OutputFormat } from '../../src/config/profiles.js';

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, tags: ['a', 'b'], note: 'x: "y"\nz' }));

function capture(stdout: { write(s: string): unknown } & object): Streams {
  return createStreams({ stdout, stderr: { write: () => true }, stdin: process.stdin }, {});
}

describe('listWriter streams', () => {
  it.each(['json', 'yaml', 'csv', 'ndjson'] as OutputFormat[])('%s writes the first page before the last arrives', async (format) => {
    let out = '';
    const w = listWriter(capture({ write: (s: string) => (out += s) }), { format });
    await w.write(rows(1, 2));
    expect(out).toContain(format === 'csv' ? 'id,tags,note\n1,' : '1');
    expect(out.length).toBeGreaterThan(10);
  });

  it('json over many pages is one array, byte for byte JSON.stringify(rows, null, 2)', async () => {
    let out = '';
    const w = listWriter(capture({ write: (s: string) => (out += s) }), { format: 'json' });
    for (let p = 0; p < 5; p++) await w.write(rows(p * 3 + 1, 3));
    await w.write([]);
    await w.end();
    expect(out).toBe(`${JSON.stringify(rows(1, 15), null, 2)}\n`);
  });

  it('yaml over many pages is one sequence', async () => {
    let out = '';
    const w = listWriter(capture({ write: (s: string) => (out += s) }), { format: 'yaml' });
    for (let p = 0; p < 3; p++) await w.write(rows(p * 2 + 1, 2));
    await w.end();
    expect(parseYaml(out)).toEqual(rows(1, 6));
  });

  it('empty lists: json [], yaml [], csv nothing (or the --fields header)', async () => {
    for (const [format, fields, expected] of [['json', undefined, '[]\n'], ['yaml', undefined, '[]\n'], ['csv', undefined, ''], ['csv', ['id'], 'id\n']] as const) {
      let out = '';
      const w = listWriter(capture({ write: (s: string) => (out += s) }), { format, fields: fields ? [...fields] : undefined });
      await w.write([]);
      await w.end();
      expect(out).toBe(expected);
    }
  });
});

describe('backpressure', () => {
  /** A stdout whose buffer is always full: every write answers false until `drain`. */
  function fullPipe() {
    const em = new EventEmitter();
    let out = '';
    return Object.assign(em, { write: (s: string) => ((out += s), false), out: () => out });
  }

  it('a write waits for drain before the next page may come', async () => {
    const pipe = fullPipe();
    const w = listWriter(capture(pipe), { format: 'ndjson' });
    let done = false;
    const writing = w.write(rows(1, 2)).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    expect(pipe.out().split('\n')).toHaveLength(3);
    pipe.emit('drain');
    await writing;
    expect(done).toBe(true);
  });

  it('an abort (Ctrl-C) or a closed pipe ends the wait', async () => {
    const pipe = fullPipe();
    const ac = new AbortController();
    const waiting = writeChunk(pipe, 'x', ac.signal);
    ac.abort();
    await waiting;
    const closed = fullPipe();
    const w2 = writeChunk(closed, 'y');
    closed.emit('close');
    await w2;
    expect(pipe.listenerCount('drain') + closed.listenerCount('drain')).toBe(0);
  });

  it('100,000 rows into a slow pipe never buffer more than a page or so', async () => {
    let buffered = 0;
    let peak = 0;
    const slow = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _enc, cb) {
        setImmediate(() => {
          buffered -= chunk.length;
          cb();
        });
      },
    });
    const stdout = { write: (s: string) => ((buffered += Buffer.byteLength(s)), (peak = Math.max(peak, buffered)), slow.write(s)), once: slow.once.bind(slow), off: slow.off.bind(slow) };
    const w = listWriter(capture(stdout), { format: 'json' });
    const page = rows(1, 100);
    for (let p = 0; p < 1000; p++) await w.write(page);
    await w.end();
    // One page of these rows is ~9 KB of json: the peak stays near the pipe's 64 KiB mark, far below 100,000 rows (~9 MB).
    expect(peak).toBeLessThan(64 * 1024 + 20 * 1024);
  });
});

describe('progress line', () => {
  it('says rows fetched of the total, the share and the rate, within the width', () => {
    expect(rowsLine(300, 10_000, 1234.4, 80)).toBe('Fetched 300/10000 rows (3%), 1234 rows/s');
    expect(rowsLine(5, undefined, undefined, 80)).toBe('Fetched 5 rows');
    expect(rowsLine(300, 10_000, 1234, 20)).toHaveLength(20);
  });

  it('redraws at most every 100 ms, always at the end, and clears itself', () => {
    let t = 0;
    let err = '';
    const p = rowProgress({ write: (s: string) => (err += s) }, { width: 80, now: () => t });
    t = 500;
    p.update(10, 30);
    t = 550;
    p.update(20, 30);
    t = 560;
    p.update(30, 30);
    p.done();
    expect(err.split('\r').filter((s) => s.trim())).toEqual(['Fetched 10/30 rows (33%), 20 rows/s', 'Fetched 30/30 rows (100%), 54 rows/s']);
    expect(err).toMatch(/\r {36}\r$/);
  });
});
