/** What went wrong in an admin operation; the CLI maps it to an exit code (4, 5, 6). */
export type AdminErrorKind = 'not_found' | 'conflict' | 'invalid';

/** A typed failure of an admin operation (`confctl admin …`), with a readable message. */
export class AdminError extends Error {
  readonly kind: AdminErrorKind;

  constructor(kind: AdminErrorKind, message: string) {
    super(message);
    this.name = 'AdminError';
    this.kind = kind;
  }
}
