/**
 * A write's body checked against the contract before it is sent: the schema the server validates
 * with, the same messages (decisions §10), exit 2 and nothing sent. Only the rules a body can be
 * judged by alone run here; those that need stored data (a department that exists, an e-mail
 * already taken) stay the server's. Loads zod, so only on the path of a write.
 */
import type { FieldErrors } from '../client/errors.js';
import { hasBody, type OperationId, operationMeta } from '../contract/operations-meta.js';
import { CliError, EXIT } from './errors.js';

/** A body the contract refuses: the first message (as the server words it) and every field's. */
export class InvalidBodyError extends CliError {
  override name = 'InvalidBodyError';
  constructor(message: string, errors: FieldErrors) {
    super(message, EXIT.usage, "checked against the API's rules before sending; nothing was sent", errors);
  }
}

/** Throws `InvalidBodyError` when `body` breaks the body schema of operation `id` (no-op for operations without a body). */
export async function checkBody(id: OperationId, body: unknown): Promise<void> {
  if (!hasBody(operationMeta(id).method)) return;
  const [{ z }, { operation }, { orderErrors, parseWith, validationBody }] = await Promise.all([
    import('zod'),
    import('../contract/operations.js'),
    import('../contract/validation.js'),
  ]);
  const op = operation(id);
  if (!op.body) return;
  const parsed = parseWith(op.body, body);
  if (parsed.ok) return;
  // Reported in the body schema's key order, as the server reports them.
  const order = op.body instanceof z.ZodObject ? Object.keys(op.body.shape) : [];
  const errors = orderErrors(parsed.errors, order);
  throw new InvalidBodyError(validationBody(errors).message, errors);
}
