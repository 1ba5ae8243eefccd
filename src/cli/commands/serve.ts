import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/** Placeholder: the lead replaces this with the `serve` command. */
export function register(_program: Command, _ctx: CliContext): void {}
