/**
 * YAML text to plain values, fast: js-yaml with a schema that resolves plain scalars exactly as the
 * `yaml` package's default (YAML 1.2 core) schema does, so a file reads the same either way (but
 * for a null key, `~: x`, which is the key "null" here and "" there: an unknown field either way). The
 * `yaml` package builds a whole document of nodes first: for an exported users.yaml of 11,000 users
 * (7 MB) that took 8.2 s and 830 MB against js-yaml's 0.5 s and 113 MB (docs/performance.md).
 *
 * Answers undefined for what it will not read: text js-yaml refuses, an explicit tag the core schema
 * lacks (`!!binary`, `!!timestamp`, a local `!tag`), or a `%YAML` directive (1.1 changes the
 * schema). The caller then reads the file with the `yaml` package, whose messages and lines users
 * see for a broken file.
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';

const scalar = (tag: string, test: RegExp, construct: (text: string) => unknown) =>
  new Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve: (text: string | null) => test.test(text ?? ''), construct });

// The core schema of the `yaml` package (yaml/dist/schema/core), in its order: the first that matches resolves.
const CORE = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', /^(?:~|[Nn]ull|NULL)?$/, () => null),
    scalar('bool', /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === 't' || s[0] === 'T'),
    scalar('int', /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/, (s) => (s.startsWith('0o') ? parseInt(s.slice(2), 8) : s.startsWith('0x') ? parseInt(s.slice(2), 16) : parseInt(s, 10))),
    scalar('float', /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/, (s) =>
      s.slice(-3).toLowerCase() === 'nan' ? NaN : /inf$/i.test(s) ? (s[0] === '-' ? -Infinity : Infinity) : parseFloat(s),
    ),
  ],
});

/** The value of `text`, or undefined when the `yaml` package must read it (above). */
export function yamlValues(text: string): { value: unknown } | undefined {
  if (/^%/m.test(text)) return undefined;
  try {
    // `json`: a repeated key takes the last value, as the `yaml` package does with uniqueKeys off.
    return { value: load(text, { schema: CORE, json: true }) };
  } catch {
    return undefined;
  }
}
