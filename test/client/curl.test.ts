import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '../../src/client/curl.js';

const headers = { accept: 'application/json', 'x-access-key-id': 'ak_1', 'x-access-key-secret': 's3cr3t', 'x-request-id': 'r-1', 'content-type': 'application/json' };

describe('curl lines', () => {
  it('quotes for a POSIX shell: bare safe words, single quotes otherwise, embedded quotes escaped', () => {
    expect(shellQuote('https://a.test/x/1')).toBe('https://a.test/x/1');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote(`O'Brien $HOME "x" \`id\``)).toBe(`'O'\\''Brien $HOME "x" \`id\`'`);
    expect(shellQuote('')).toBe("''");
  });

  it('method, URL, the key headers (secret masked), content type and --data-raw; other headers left out', () => {
    const line = curlCommand({ method: 'POST', url: 'https://a.test/api/customers?x=1&y=2', headers, body: '{"last_name":"O\'Brien"}' });
    expect(line).toBe(
      "curl -X POST 'https://a.test/api/customers?x=1&y=2' -H 'X-Access-Key-Id: ak_1' -H 'X-Access-Key-Secret: ****' " +
        "-H 'Content-Type: application/json' --data-raw '{\"last_name\":\"O'\\''Brien\"}'",
    );
    expect(line).not.toContain('s3cr3t');
    expect(line).not.toContain('r-1');
  });

  it('shows the secret on request; no body, no --data-raw', () => {
    const line = curlCommand({ method: 'PATCH', url: 'https://a.test/u/1', headers: { 'x-access-key-id': 'ak_1', 'x-access-key-secret': 's3cr3t' } }, { showSecret: true });
    expect(line).toBe("curl -X PATCH https://a.test/u/1 -H 'X-Access-Key-Id: ak_1' -H 'X-Access-Key-Secret: s3cr3t'");
  });

  it('the quoted line survives a real shell round trip', async () => {
    const { execFileSync } = await import('node:child_process');
    const body = `{"n":"it's a \\"test\\" $(id) \`x\` \\n"}`;
    const line = curlCommand({ method: 'POST', url: 'https://a.test/x', headers, body });
    const echoed = execFileSync('sh', ['-c', `printf '%s' ${line.slice(line.indexOf('--data-raw ') + 11)}`], { encoding: 'utf8' });
    expect(echoed).toBe(body);
  });
});
