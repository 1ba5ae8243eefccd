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

/** A tenant refused because one of its domains belongs to another tenant already; the CLI says so as a conflict (5). */
export class DomainInUse extends Error {
  override name = 'DomainInUse';

  constructor(readonly domains: readonly string[]) {
    super(`domain already in use: ${domains.join(', ')}`);
  }
}

/**
 * A copy refused because the source's media directory lacks files that its Finished recordings
 * name: copied, each of them would answer 404. The CLI reports it as a usage error (a wrong --media).
 */
export class MediaMissing extends Error {
  override name = 'MediaMissing';
}
