import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/cli/bulk/csv.js';
import { detectFormat, parseRecords } from '../../src/cli/bulk/records.js';

describe('CSV (RFC 4180)', () => {
  it('reads quoted commas, doubled quotes and line breaks inside quotes, with CRLF rows', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""","two\nlines"\r\nplain,,last\r\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['x, y', 'say "hi"', 'two\nlines'] },
      { line: 4, cells: ['plain', '', 'last'] },
    ]);
  });

  it('skips blank lines, needs no final line break, keeps a trailing empty cell', () => {
    expect(parseCsv('a,b\n\n1,\n2,3')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 3, cells: ['1', ''] },
      { line: 4, cells: ['2', '3'] },
    ]);
  });

  it('names the line of an unterminated quote or a stray quote', () => {
    expect(() => parseRecords('a\n"open\nstill', 'csv')).toThrow(/line 2: unterminated quoted field/);
    expect(() => parseRecords('a\nx"y', 'csv')).toThrow(/line 2: a quote inside an unquoted field/);
    expect(() => parseRecords('a\n"x"y', 'csv')).toThrow(/line 2: unexpected text after a closing quote/);
  });

  it('maps columns to fields: dotted headers nest, empty cells are left out, lines follow the file', () => {
    const text = [
      'first_name,last_name,email,address.city,address.country',
      'Ada,Lovelace,ada@example.com,London,UK',
      '"Grace","Hopper, Rear Admiral",grace@example.com,,',
      'Multi,"Line',
      'Name",m@example.com,Paris,',
      'Bob,Smith,bob@example.com,,France',
    ].join('\n');
    expect(parseRecords(text, 'csv')).toEqual([
      { line: 2, record: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', address: { city: 'London', country: 'UK' } } },
      { line: 3, record: { first_name: 'Grace', last_name: 'Hopper, Rear Admiral', email: 'grace@example.com' } },
      { line: 4, record: { first_name: 'Multi', last_name: 'Line\nName', email: 'm@example.com', address: { city: 'Paris' } } },
      { line: 6, record: { first_name: 'Bob', last_name: 'Smith', email: 'bob@example.com', address: { country: 'France' } } },
    ]);
  });


  it('refuses a row wider than the header, and a header without a name', () => {
    expect(() => parseRecords('a,b\n1,2,3\n', 'csv')).toThrow(/line 2: 3 cells but the header names 2 columns/);
    expect(() => parseRecords('a,,c\n1,2,3\n', 'csv')).toThrow(/line 1: header column 2 has no name/);
  });

  it('strips a byte order mark', () => {
    expect(parseRecords('\uFEFFname,email\nA,a@x.io\n', 'csv')).toEqual([{ line: 2, record: { name: 'A', email: 'a@x.io' } }]);
  });
});

describe('NDJSON and JSON arrays', () => {
  it('NDJSON: one object per line, blank lines skipped, lines counted', () => {
    expect(parseRecords('{"a":1}\n\n{"a":2}\r\n{"a":"x,y"}\n', 'ndjson')).toEqual([
      { line: 1, record: { a: 1 } },
      { line: 3, record: { a: 2 } },
      { line: 4, record: { a: 'x,y' } },
    ]);
  });

  it('NDJSON: a bad line or a non-object is an error naming the line', () => {
    expect(() => parseRecords('{"a":1}\n{"a":\n', 'ndjson')).toThrow(/line 2: not valid JSON/);
    expect(() => parseRecords('{"a":1}\n[1]\n', 'ndjson')).toThrow(/line 2: a record must be a JSON object/);
  });

  it('a pretty-printed single object in a .ndjson/unknown file is one record', () => {
    expect(parseRecords('{\n  "a": 1\n}\n', 'ndjson')).toEqual([{ line: 1, record: { a: 1 } }]);
  });

  it('JSON array: each element keeps the line it starts on, strings and nesting skipped', () => {
    const text = '[\n  {"a": "[{,", "b": {"c": [1, 2]}},\n\n  {\n    "a": "\\"}"\n  }, {"a": 3}\n]\n';
    expect(parseRecords(text, 'json')).toEqual([
      { line: 2, record: { a: '[{,', b: { c: [1, 2] } } },
      { line: 4, record: { a: '"}' } },
      { line: 6, record: { a: 3 } },
    ]);
  });

  it('JSON: invalid text or non-object elements are errors', () => {
    expect(() => parseRecords('[{"a":1},', 'json')).toThrow(/not valid JSON/);
    expect(() => parseRecords('[{"a":1},\n 2]', 'json')).toThrow(/line 2: a record must be a JSON object/);
  });
});

describe('format detection', () => {
  it('by extension first, then by content', () => {
    expect(detectFormat('x.json', 'a,b')).toBe('json');
    expect(detectFormat('x.NDJSON', '[')).toBe('ndjson');
    expect(detectFormat('x.jsonl', '')).toBe('ndjson');
    expect(detectFormat('x.csv', '[')).toBe('csv');
    expect(detectFormat('data.txt', '  \n[{"a":1}]')).toBe('json');
    expect(detectFormat('', '{"a":1}\n{"a":2}')).toBe('ndjson');
    expect(detectFormat('', 'name,email\n')).toBe('csv');
  });
});
