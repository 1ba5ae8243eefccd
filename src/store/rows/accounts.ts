/** The columns of connected accounts and conference accounts, read alike by both stores. */
export const CONNECTED_COLUMNS = 'id, owner_type, owner_id, provider_id, provider_uid, provider_email, created_at, updated_at, deleted_at';
export const CONFERENCE_ACCOUNT_COLUMNS = 'id, owner_type, owner_id, connected_account_id, name, created_at, updated_at, deleted_at';
