/**
 * The top-level commands and how to load each. main.ts registers only the one being run; the
 * completion tree loads them all. Each loader is a static `import()` so the bundler gives every
 * command its own lazily loaded chunk.
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { EXIT } from './errors.js';

/** A command module: `register` adds its command(s) to the program. */
export interface CommandModule {
  register(program: Command, ctx: CliContext): void;
}

/** Top-level commands, each loaded only when it runs. */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  users: { summary: "List, create, show and update users; list a user's accounts", load: () => import('./commands/users/index.js') },
  customers: { summary: 'List, show, create and update customers', load: () => import('./commands/customers/index.js') },
  conferences: { summary: 'List, create, show, update and delete online conferences; list, add and remove attendees; make join links', load: () => import('./commands/conferences/index.js') },
  recordings: { summary: "List a conference's recordings; get a temporary URL or download one", load: () => import('./commands/recordings/index.js') },
  export: { summary: "Write the tenant's users, customers and conferences as desired-state files", load: () => import('./commands/tenant/export.js') },
  plan: { summary: 'Compare desired-state files with the tenant and show (or save) the plan', load: () => import('./commands/tenant/plan.js') },
  apply: { summary: 'Carry out a saved plan, or plan desired-state files and apply them', load: () => import('./commands/tenant/apply.js') },
  sync: { summary: "Plan and apply users or customers from another system's export (CSV, NDJSON, JSON)", load: () => import('./commands/tenant/sync.js') },
  events: { summary: 'Show calendar events', load: () => import('./commands/events/index.js') },
  wait: { summary: `Wait until a conference, recording or user reaches a state (exit ${EXIT.timedOut} on timeout)`, load: () => import('./commands/wait/index.js') },
  mirror: { summary: 'Build a local instance from a tenant read through the API, optionally anonymized', load: () => import('./commands/mirror/index.js') },
  profile: { summary: 'Manage saved API profiles (base URL and access key)', load: () => import('./commands/profile/index.js') },
  login: { summary: 'Save a profile interactively after checking the key', load: () => import('./commands/profile/login.js') },
  serve: { summary: 'Run a local instance of the API', load: () => import('./commands/serve/index.js') },
  admin: { summary: 'Administer a local data directory or a PostgreSQL database', load: () => import('./commands/admin/index.js') },
  webhooks: { summary: 'Receive webhook deliveries: listen locally (verify, print, forward) or verify a capture', load: () => import('./commands/webhooks/index.js') },
  api: { summary: "Send any request to the API with the profile's key (like gh api)", load: () => import('./commands/api/index.js') },
  doctor: { summary: 'Check the profile: config, reachability, the key and its permissions', load: () => import('./commands/doctor/index.js') },
  completion: { summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./commands/completion/index.js') },
  version: { summary: 'Print the version of confctl', load: () => import('./commands/version/index.js') },
};
