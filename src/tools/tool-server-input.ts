import { InvalidInputError } from '../domain/errors.ts';
import type { SecretBox } from './secrets.ts';
import { SERVER_NAME } from './tool-catalog.ts';
import { RefusedUrl, type UrlGuard } from './url-guard.ts';

export interface HeaderInput {
  name: string;
  value: string;
}

/** What an admin gives to add a tool server or change one (absent fields stay as they are). */
export interface ToolServerInput {
  name?: string;
  url?: string;
  headers?: HeaderInput[] | null;
  timeoutMs?: number | null;
}

/** The columns an input sets, checked: the URL through the guard, header values sealed. */
export interface ToolServerChanges {
  name?: string;
  url?: string;
  rest: { headerNames?: string[]; headersEncrypted?: string | null; timeoutMs?: number | null };
}

const MAX_HEADERS = 20;
const MAX_HEADER_VALUE_CHARS = 4_096;
const MAX_TIMEOUT_MS = 600_000;
const MAX_URL_CHARS = 2_000;
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** Checks an admin's input (`creating`: name and URL are required); an InvalidInputError names the field. */
export async function validatedInput(
  input: ToolServerInput,
  creating: boolean,
  { guard, secrets }: { guard: UrlGuard; secrets: SecretBox },
): Promise<ToolServerChanges> {
  const data: ToolServerChanges = { rest: {} };
  if (creating || input.name !== undefined) {
    const name = (input.name ?? '').trim();
    if (!SERVER_NAME.test(name)) {
      throw new InvalidInputError('name', 'must be 1 to 40 lower-case letters, digits, "-" or "_", starting with a letter or digit.');
    }
    data.name = name;
  }
  if (creating || input.url !== undefined) {
    const url = (input.url ?? '').trim();
    if (url.length > MAX_URL_CHARS) throw new InvalidInputError('url', `must be at most ${MAX_URL_CHARS} characters.`);
    try {
      data.url = (await guard.check(url)).toString();
    } catch (error) {
      if (error instanceof RefusedUrl) throw new InvalidInputError('url', error.message);
      throw error;
    }
  }
  if (input.timeoutMs !== undefined) {
    const timeoutMs = input.timeoutMs;
    if (timeoutMs !== null && (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)) {
      throw new InvalidInputError('timeoutMs', `must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, or null.`);
    }
    data.rest.timeoutMs = timeoutMs;
  }
  if (input.headers != null) {
    const headers = input.headers;
    if (headers.length > MAX_HEADERS) throw new InvalidInputError('headers', `must be at most ${MAX_HEADERS}.`);
    const values: Record<string, string> = {};
    for (const header of headers) {
      if (!HEADER_NAME.test(header.name)) throw new InvalidInputError('headers', `${JSON.stringify(header.name.slice(0, 64))} is not a header name.`);
      if (header.value.length > MAX_HEADER_VALUE_CHARS || /[\r\n\0]/.test(header.value)) {
        throw new InvalidInputError('headers', `the value of ${header.name} must be one line of at most ${MAX_HEADER_VALUE_CHARS} characters.`);
      }
      values[header.name] = header.value;
    }
    if (headers.length > 0 && !secrets.canStore) {
      throw new InvalidInputError(
        'headers',
        'header values are stored encrypted, which needs PARLEY_SECRET_KEY with PostgreSQL; the operator sets it (32 bytes, hex or base64) and restarts.',
      );
    }
    data.rest.headerNames = Object.keys(values);
    data.rest.headersEncrypted = headers.length > 0 ? secrets.seal(JSON.stringify(values)) : null;
  }
  return data;
}
