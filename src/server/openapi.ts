import { openApiDocument } from '../contract/openapi.js';

/** A stand-in for the first server's URL, replaced per request in the serialized document. */
const ORIGIN = 'http://origin.invalid';
let parts: [string, string] | undefined;
let withoutOrigin: string | undefined;

/**
 * The serialized OpenAPI document whose first server is `origin` (the request's scheme and host;
 * none when the request named no host). Generated once; each answer only splices the origin in.
 */
export function openApiJson(origin: string | undefined): string {
  if (!origin) return (withoutOrigin ??= JSON.stringify(openApiDocument()));
  if (!parts) {
    const text = JSON.stringify(openApiDocument(ORIGIN));
    const at = text.indexOf(ORIGIN);
    parts = [text.slice(0, at), text.slice(at + ORIGIN.length)];
  }
  return parts[0] + JSON.stringify(origin).slice(1, -1) + parts[1];
}
