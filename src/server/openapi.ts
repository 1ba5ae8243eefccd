import { API_PREFIX } from '../contract/index.js';
import { openApiDocument } from '../contract/openapi.js';

let cached: string | undefined;

/** The serialized OpenAPI document, generated on first use and then reused. */
export function openApiJson(): string {
  cached ??= JSON.stringify(openApiDocument(API_PREFIX));
  return cached;
}
