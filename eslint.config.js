// @ts-check
/**
 * `npm run lint`: typescript-eslint's recommended type-checked rules over src/, test/ and bench/,
 * and the layers' dependency rule. Every rule turned off or narrowed says why.
 */
import tseslint from 'typescript-eslint';

/** The rules that flag the use of values typed `any`, for code whose values are `any` (reasons where used). */
const UNSAFE_ANY_OFF = Object.fromEntries(
  ['no-unsafe-argument', 'no-unsafe-assignment', 'no-unsafe-call', 'no-unsafe-member-access', 'no-unsafe-return'].map((r) => [`@typescript-eslint/${r}`, 'off']),
);

/** The layers' rule, as import patterns: a static import, an `export … from` or a dynamic `import()`. */
const NO_ADAPTERS = {
  regex: '(^|/)store/(sqlite|postgres)(/|$)',
  message: 'cli/, admin/ and local/ reach a store through the port (src/store/), never an adapter (ARCHITECTURE.md).',
};
/** Each adapter stands alone: what both read (columns, row mappers, list definitions) lives in src/store/rows/. */
const NO_SQLITE = { regex: '(^|/)sqlite(/|$)', message: 'The PostgreSQL adapter and src/store/rows/ do not import the SQLite adapter: share through src/store/rows/.' };
const NO_POSTGRES = { regex: '(^|/)postgres(/|$)', message: 'The SQLite adapter and src/store/rows/ do not import the PostgreSQL adapter: share through src/store/rows/.' };
const NO_CLI = {
  regex: '^(\\.\\./)+cli(/|$)',
  message: 'Nothing below the CLI imports src/cli/: move what both need below it.',
};
/** The one clock: only src/contract/clock.ts reads the system clock; everything else is given a clock or asks that module. */
const CLOCK_MODULE = 'src/contract/clock.ts';
const CLOCK_MESSAGE = "Read the time through src/contract/clock.ts: the instance clock for what the data dates (it may be serve's manual clock), realMs/realNow for what keeps real time.";
const NO_SYSTEM_CLOCK = [
  { selector: "MemberExpression[object.name='Date'][property.name='now']", message: CLOCK_MESSAGE },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: CLOCK_MESSAGE },
  { selector: "CallExpression[callee.name='Date']", message: CLOCK_MESSAGE },
];
const layerRules = (/** @type {{ regex: string; message: string }[]} */ patterns, clock = NO_SYSTEM_CLOCK) => ({
  'no-restricted-imports': ['error', { patterns }],
  'no-restricted-syntax': [
    'error',
    ...patterns.map((p) => ({ selector: `ImportExpression > Literal[value=/${p.regex.replaceAll('/', '\\/')}/]`, message: p.message })),
    ...clock,
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', '.stryker-tmp/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'test/**/*.mjs', 'bench/**/*.js'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `async` on a method with no `await` is deliberate here: it implements the async port (or
      // an async callback) over synchronous SQLite, and turns a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
      // Stores, fixtures and dependencies are objects of closures declared with method syntax;
      // none uses `this`, so passing `store.close` or destructuring `{ tenantOf }` is safe.
      '@typescript-eslint/unbound-method': 'off',
      // A leading underscore names what destructuring drops on purpose (`{ secret: _s, ...rest }`).
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // An abort passes `signal.reason` on, and a relay passes on what it was given: either may be
      // any value, and changing it would change what the caller catches.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    files: ['test/**/*.ts', 'test/**/*.mjs'],
    rules: {
      // Tests read response bodies and CLI output as `any` (`json<T = any>`) and check their shape
      // with assertions at run time; typing each body would restate the contract in every file
      // (about 1,200 findings) and check nothing the assertions do not.
      '@typescript-eslint/no-explicit-any': 'off',
      ...UNSAFE_ANY_OFF,
      // The store contract runs on every backend and awaits the port's `Awaitable` answers (a value
      // on SQLite, a promise on PostgreSQL) through Promise.all, which this rule takes for a mistake.
      '@typescript-eslint/await-thenable': 'off',
    },
  },
  {
    files: ['bench/**/*.js'],
    rules: {
      // bench/ is plain JavaScript without type annotations: most of its values are `any`.
      ...UNSAFE_ANY_OFF,
      // Types inferred from plain JavaScript make unions of unrelated values (a loop over mixed
      // scenario objects); the names and numbers put into text here are never objects.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  // The one clock, for the files no layer rule below names (the layer rules repeat it).
  { files: ['src/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...NO_SYSTEM_CLOCK] } },
  // The layers (ARCHITECTURE.md): nothing below the CLI imports it; cli/, admin/ and local/ use the port.
  { files: ['src/**/*.ts'], ignores: ['src/cli/**'], rules: layerRules([NO_CLI]) },
  { files: ['src/admin/**/*.ts', 'src/local/**/*.ts'], rules: layerRules([NO_CLI, NO_ADAPTERS]) },
  { files: ['src/cli/**/*.ts'], rules: layerRules([NO_ADAPTERS]) },
  { files: ['src/store/postgres/**/*.ts'], rules: layerRules([NO_CLI, NO_SQLITE]) },
  { files: ['src/store/sqlite/**/*.ts'], rules: layerRules([NO_CLI, NO_POSTGRES]) },
  { files: ['src/store/rows/**/*.ts'], rules: layerRules([NO_CLI, NO_SQLITE, NO_POSTGRES]) },
  // The clock module is the one place that reads the system clock.
  { files: [CLOCK_MODULE], rules: layerRules([NO_CLI], []) },
);
