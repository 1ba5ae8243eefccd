import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/** Work in progress. */
export function register(_program: Command, _ctx: CliContext): void {}
