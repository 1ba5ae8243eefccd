/** The parts of a customer's address, in order (a module of its own: the store's read workers import it without zod). */
export const ADDRESS_FIELDS = ['line_1', 'line_2', 'city', 'region', 'region_code', 'country', 'country_code', 'postal_code'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
