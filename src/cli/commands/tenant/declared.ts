/**
 * Departments and roles the admin declares on the command line (`--department NAME=ID`, `--role
 * NAME`). The API lists neither: `plan` knows the departments and roles its users show, and a
 * name no user holds yet is declared here, so that the files can name it (the server still checks
 * it when the plan is applied).
 */
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { collect } from '../../collect.js';

export interface Declared {
  departments: Array<{ id: number; name: string }>;
  roles: string[];
}

/** Adds `--department` and `--role` (both repeatable) to `cmd`. */
export function addDeclaredFlags(cmd: Command): Command {
  return cmd
    .option('--department <name=id>', 'a department no user is in yet, by name and id (the API cannot list departments; repeatable)', collect)
    .option('--role <name>', 'a role no user holds yet (the API cannot list roles; repeatable)', collect);
}

/** The declared names of `flags` (`--department Legal=12`: the id a whole number). */
export function declaredOf(flags: { department?: string[]; role?: string[] }): Declared {
  const departments = (flags.department ?? []).map((pair) => {
    const m = /^(.*\S)\s*=\s*(\d+)$/.exec(pair.trim());
    if (!m || Number(m[2]) < 1) throw new UsageError(`--department takes NAME=ID (the department's id, a whole number), not '${pair}'`);
    return { name: m[1], id: Number(m[2]) };
  });
  const roles = (flags.role ?? []).map((r) => r.trim());
  if (roles.some((r) => !r)) throw new UsageError('--role takes a role name, not an empty one');
  return { departments, roles };
}
