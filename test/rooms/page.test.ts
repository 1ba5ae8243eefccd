import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { conferenceState, escapeHtml, renderRoomPage, ROOM_CSP, roomUrl } from '../../src/rooms/page.js';

describe('the join page', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('names the state: waiting, running, ended', () => {
    expect(conferenceState({ started_at: null, ended_at: null })).toBe('waiting');
    expect(conferenceState({ started_at: '2026-03-01T10:00:00.000Z', ended_at: null })).toBe('running');
    expect(conferenceState({ started_at: '2026-03-01T10:00:00.000Z', ended_at: '2026-03-01T11:00:00.000Z' })).toBe('ended');
  });

  it('renders title and name escaped, no script, and a style the CSP allows by its hash', () => {
    const html = renderRoomPage({ title: '</title><script>x()</script>', started_at: null, ended_at: null }, 'Zoë & <b>');
    expect(html).not.toMatch(/<script|<b>/);
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</title>');
    expect(html).toContain('<strong>Zoë &amp; &lt;b&gt;</strong>');
    expect(html).toContain('data-state="waiting"');
    const style = /<style>(.*)<\/style>/.exec(html)![1];
    expect(ROOM_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(ROOM_CSP.startsWith("default-src 'none'")).toBe(true);
  });

  it('builds the join URL on the origin, the public id and token encoded', () => {
    expect(roomUrl('http://localhost:8080/', 'weekly-sync', '1.2.3.ab')).toBe('http://localhost:8080/rooms/weekly-sync?token=1.2.3.ab');
  });
});
