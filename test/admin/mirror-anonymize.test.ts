import { describe, expect, it } from 'vitest';
import { Anonymizer } from '../../src/admin/mirror/anonymize.js';
import { settingsMismatch } from '../../src/admin/mirror/state.js';

describe('Anonymizer', () => {
  const a = new Anonymizer('seed-1');

  it('gives the same fake for the same input and seed, another for another seed', () => {
    expect(new Anonymizer('seed-1').name('Grace Hopper')).toBe(a.name('Grace Hopper'));
    expect(new Anonymizer('seed-2').name('Grace Hopper')).not.toBe(a.name('Grace Hopper'));
    expect(a.email('Grace@Acme.com')).toBe(a.email('grace@acme.com'));
  });

  it('fakes each name word with a word of its length and case shape, the same wherever it appears', () => {
    const fake = a.name("Mary-Ann O'Neil MCDONALD");
    expect(fake).toMatch(/^[A-Z][a-z]{3}-[A-Z][a-z]{2} [A-Z]'[A-Z][a-z]{3} [A-Z]{8}$/);
    expect(fake).not.toContain('Mary');
    expect(a.name('Mary')).toBe(fake.slice(0, 4));
  });

  it('fakes known name words in free text, and only those', () => {
    const b = new Anonymizer('s');
    const first = b.name('Ada');
    expect(b.text("Ada's Zoom room")).toBe(`${first}'s Zoom room`);
    expect(b.text('https://avatars.example.com/ada-x.png')).toBe(`https://avatars.example.com/${first.toLowerCase()}-x.png`);
    expect(b.text(null)).toBeNull();
  });

  it('keeps e-mails distinct and their domains shaped alike; one source domain, one fake domain', () => {
    const x = a.email('ada.lovelace@mail.acme.co.uk');
    const y = a.email('ada.lovelace2@mail.acme.co.uk');
    expect(x).toMatch(/^[a-z]{3}\.[a-z]{8}-[0-9a-f]{8}@[a-z]{4}\.[a-z]{4}\.[a-z]{2}\.uk$/);
    expect(y).not.toBe(x);
    expect(x.split('@')[1]).toBe(y.split('@')[1]);
    expect(x).not.toContain('acme');
    const many = new Set(Array.from({ length: 2000 }, (_, i) => a.email(`user${i}@example.com`)));
    expect(many.size).toBe(2000);
  });

  it('keeps phone numbers E.164 of the same length, the first digit kept', () => {
    const fake = a.phone('+4915123456789');
    expect(fake).toMatch(/^\+4\d{12}$/);
    expect(fake).not.toBe('+4915123456789');
    expect(a.phone('+4915123456789')).toBe(fake);
    expect(a.phone(null)).toBeNull();
  });

  it('keeps the shape of address lines and postal codes', () => {
    expect(a.shape('221B Baker Street')).toMatch(/^\d{3}[A-Z] [A-Z][a-z]{4} [A-Z][a-z]{5}$/);
    expect(a.shape('SW1A 1AA')).toMatch(/^[A-Z]{2}\d[A-Z] \d[A-Z]{2}$/);
  });
});

describe('settingsMismatch', () => {
  const settings = { source: 'https://a/api', since: '90d', limit_per_kind: null, anonymize: true, seed_check: 'abc' };
  it('names the first setting that differs (the seed by name, never its check)', () => {
    expect(settingsMismatch(settings, { ...settings })).toBeUndefined();
    expect(settingsMismatch(settings, { ...settings, since: null })).toBe('since');
    expect(settingsMismatch(settings, { ...settings, seed_check: 'x' })).toBe('seed');
  });
});
