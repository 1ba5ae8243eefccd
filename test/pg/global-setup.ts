/** vitest globalSetup: one PostgreSQL for the whole run (see postgres-server.ts); tests `inject('postgresUrl')`. */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
