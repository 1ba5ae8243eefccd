/**
 * `mirror --anonymize`: consistent fakes for the personal data a tenant's API answers carry.
 * Every fake is an HMAC-SHA256 of the original under the seed, so the same input and seed always
 * give the same output, and equal values stay equal (filters by Equal count the same rows).
 *
 * - Names: each word (a run of letters) becomes a pronounceable word of the same length and case
 *   shape; the same word gives the same fake wherever it appears (first, middle and last names,
 *   attendee names, and in free text where a known name word appears: account names, titles,
 *   avatar URLs).
 * - E-mails: the local part's words are faked like names, then `-` and eight characters of the
 *   address's HMAC keep addresses distinct; each domain label but the top-level one is faked
 *   (`acme.co.uk` → `oxib.fe.uk`): one source domain, one fake domain. Compared ignoring case, as
 *   the API compares them.
 * - Phone numbers: `+`, the first digit, then as many fake digits as there were.
 * - Addresses: `line_1`, `line_2` and `postal_code` keep their shape (digits stay digits, words
 *   become fake words); city, region, country and their codes are kept (they are what
 *   `city_country` filters count, and identify no one).
 */
import { createHmac } from 'node:crypto';

const CONSONANTS = 'bcdfghjklmnprstvz';
const VOWELS = 'aeiou';
const WORD = /\p{L}+/gu;

export class Anonymizer {
  /** HMAC tags of the name words seen (lower case), never the words: which free-text words to fake. */
  readonly nameTags = new Set<string>();

  constructor(private readonly seed: string) {}

  private mac(kind: string, value: string): Buffer {
    return createHmac('sha256', this.seed).update(`${kind}\0${value}`).digest();
  }

  /** A tag of a name word, as kept in `nameTags` (and a resumed mirror's state). */
  tag(word: string): string {
    return this.mac('tag', word.toLowerCase()).toString('base64url').slice(0, 16);
  }

  /** A fake for one word: same length, pronounceable, the original's case shape. */
  word(original: string): string {
    const bytes = this.mac('word', original.toLowerCase());
    let out = '';
    for (let i = 0; i < original.length; i++) {
      const b = bytes[i % bytes.length] ^ i;
      out += i % 2 === 0 ? CONSONANTS[b % CONSONANTS.length] : VOWELS[b % VOWELS.length];
    }
    if (original === original.toUpperCase() && original.length > 1) return out.toUpperCase();
    return original[0] === original[0].toUpperCase() ? out[0].toUpperCase() + out.slice(1) : out;
  }

  /** A name (or any text of name words): every word faked, and remembered as a name word. */
  name(text: string): string;
  name(text: string | null): string | null;
  name(text: string | null): string | null {
    if (text === null) return null;
    return text.replace(WORD, (w) => {
      this.nameTags.add(this.tag(w));
      return this.word(w);
    });
  }

  /** Free text: only the words that are known name words are faked. */
  text(text: string): string;
  text(text: string | null): string | null;
  text(text: string | null): string | null {
    if (text === null) return null;
    return text.replace(WORD, (w) => (this.nameTags.has(this.tag(w)) ? this.word(w) : w));
  }

  email(address: string): string;
  email(address: string | null): string | null;
  email(address: string | null): string | null {
    if (address === null) return null;
    const lower = address.toLowerCase();
    const at = lower.lastIndexOf('@');
    const local = at < 0 ? lower : lower.slice(0, at);
    const domain = at < 0 ? '' : lower.slice(at + 1);
    const suffix = this.mac('email', lower).toString('hex').slice(0, 8);
    const fakeLocal = `${local.replace(WORD, (w) => this.word(w)).replace(/\d/g, (d) => this.digit(`${lower}:${d}`))}-${suffix}`;
    if (at < 0) return fakeLocal;
    const labels = domain.split('.');
    const fakeDomain = labels.map((label, i) => (i === labels.length - 1 && labels.length > 1 ? label : this.label(label))).join('.');
    return `${fakeLocal}@${fakeDomain}`;
  }

  /** A domain label: letters faked as a word, digits kept as digits, `-` kept. */
  private label(label: string): string {
    const bytes = this.mac('label', label);
    return label.replace(/[a-z]+|\d/g, (part) => (/\d/.test(part) ? String(bytes[0] % 10) : this.word(part)));
  }

  private digit(key: string): string {
    return String(this.mac('digit', key)[0] % 10);
  }

  /** Digits replaced one for one (the first kept), everything else as it was: E.164 stays E.164. */
  phone(number: string): string;
  phone(number: string | null): string | null;
  phone(number: string | null): string | null {
    if (number === null) return null;
    const bytes = this.mac('phone', number);
    let seen = 0;
    return number.replace(/\d/g, (d) => (seen++ === 0 ? d : String(bytes[seen % bytes.length] % 10)));
  }

  /** An address line or postal code: digits replaced, words faked, punctuation and spaces kept. */
  shape(text: string): string;
  shape(text: string | null): string | null;
  shape(text: string | null): string | null {
    if (text === null) return null;
    const bytes = this.mac('shape', text);
    let n = 0;
    return text.replace(WORD, (w) => this.word(w)).replace(/\d/g, () => String(bytes[n++ % bytes.length] % 10));
  }
}
