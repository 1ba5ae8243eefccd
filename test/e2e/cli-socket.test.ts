import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCli } from './cli-socket.js';
import { BIN, Sandbox } from './harness.js';
import { perlClient, sectionEnv } from './readme/section-env.js';

/** The manual's examples run `confctl` in a shell through the CLI runners' socket (cli-client.pl): as the bin would run there. */
describe.skipIf(!perlClient())('e2e: confctl in a shell, through the CLI runners', () => {
  const box = new Sandbox();
  let cli: Awaited<ReturnType<typeof serveCli>>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    cli = await serveCli(join(box.root, 'cli.sock'));
    env = sectionEnv(box.env(), { bin: BIN, home: join(box.root, 'home'), shimDir: join(box.root, 'bin'), socket: cli.path });
  });
  afterAll(async () => {
    await cli.close();
    await box.dispose();
  });

  /** Runs `script` in bash (not synchronously: the socket is served by this process). */
  const sh = (script: string, extra: NodeJS.ProcessEnv = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-c', `set -o pipefail\n${script}`], { cwd: box.root, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });

  it('answers exit codes and both streams as the bin does', async () => {
    for (const args of ['users list --nope', '--help', 'profile list -o json', 'users get u1']) {
      const before = cli.answered();
      const viaSocket = await sh(`confctl ${args}`);
      expect(cli.answered(), `${args} went through the socket`).toBe(before + 1);
      const alone = await sh(`"${process.execPath}" "${BIN}" ${args}`);
      expect(viaSocket, args).toEqual(alone);
    }
    expect((await sh('confctl users list --nope')).code).toBe(2);
  });

  it('carries arguments and environment values with quotes, backslashes, control characters and UTF-8 as they are', async () => {
    const odd = 'a"b\\c\td\u00e9\u00df\u20ac \x01e';
    for (const [args, extra] of [
      ['users list --filter "$ODD"', { ODD: odd }],
      ['users list', { CONFCTL_PROFILE: odd }],
    ] as const) {
      const viaSocket = await sh(`confctl ${args}`, extra);
      expect(viaSocket.stderr, args).toContain('a"b\\c\td\u00e9\u00df\u20ac');
      expect(viaSocket, args).toEqual(await sh(`"${process.execPath}" "${BIN}" ${args}`, extra));
    }
  });

  it('gives a command the stdin it reads, and leaves it to the next command when it reads none', async () => {
    const add = await sh("printf 'from-a-pipe\\n' | confctl profile add p1 --domain one.example.com --key-id k1 --secret-stdin");
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(box.configDir, 'profiles.json'), 'utf8')).profiles.p1.secret).toBe('from-a-pipe');
    const next = await sh("printf 'for cat\\n' | { confctl profile list -o json >/dev/null; cat; }");
    expect(next).toEqual({ code: 0, stdout: 'for cat\n', stderr: '' });
  });

  it('works in a relative directory and ends quietly when its reader goes away', async () => {
    expect((await sh('mkdir -p sub && cd sub && confctl admin init --no-profile --data ./d -o json >/dev/null && ls')).stdout).toBe('d\n');
    const head = await sh('confctl --help | head -c 5');
    expect(head).toEqual({ code: 0, stdout: 'Usage', stderr: '' });
  });

  it('runs the bin in a process of its own for an environment node reads at start', async () => {
    const r = await sh('confctl --help', { TZ: 'Asia/Tokyo' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await sh(`"${process.execPath}" "${BIN}" --help`)).stdout);
  });
});
