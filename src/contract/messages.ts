/** Fixed error texts of the interface (spec §7, decisions §2). Clients match on them; never reword. */
export const MESSAGES = {
  invalidKey: 'Invalid or missing access key.',
  accessDenied: 'Access denied.',
  notFound: 'Resource object does not exist.',
  unknownTenant: 'Unknown tenant.',
  methodNotAllowed: 'Method not allowed.',
  tooManyRequests: 'Too many requests.',
  serviceBusy: 'Service busy, try again.',
  payloadTooLarge: 'Payload too large.',
  badRequest: 'Bad request.',
  headersTooLarge: 'Request header fields too large.',
  requestTimeout: 'Request timeout.',
  tooManyConnections: 'Too many connections.',
  unexpected: 'An unexpected error the service.',
  conferenceStarted: 'Cannot modify an online conference that has started.',
  conferenceEnded: 'Cannot modify an online conference that has ended.',
  maxAttendees: 'Cannot exceed maximum attendee count.',
  conferenceInProgress: 'Cannot delete an online conference that is in progress.',
  ownerNotRemovable: 'Cannot remove the owner of the online conference.',
  recordingNotFinished: 'Online Conference Recording is not Finished.',
  invalidSignature: 'Invalid signature.',
  invalidToken: 'Invalid token.',
  invalidJson: 'The request body must be valid JSON.',
} as const;

/** Success `message` of the envelope, per response kind. */
export const SUCCESS_MESSAGES = {
  single: 'Success.',
  list: 'Success.',
  created: 'Success.',
} as const;
