import { InvalidInputError } from '../domain/errors.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, MAX_IMPORT_CHARS, threadExport, type ThreadExport } from './export-format.ts';

const FIELD = 'content';

/**
 * A JSON export of this version, checked whole before anything is written; anything else is an
 * InvalidInputError on `content` that says what is wrong and where.
 */
export function parseThreadExport(content: string): ThreadExport {
  if (content.length > MAX_IMPORT_CHARS) {
    throw new InvalidInputError(FIELD, `is over ${MAX_IMPORT_CHARS} characters; an import holds at most that.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    throw new InvalidInputError(FIELD, `is not JSON (${(error as Error).message.slice(0, 200)}); import the JSON export of a thread, not its Markdown.`);
  }
  const header = typeof value === 'object' && value !== null ? (value as { format?: unknown; version?: unknown }) : {};
  if (header.format !== EXPORT_FORMAT) throw new InvalidInputError(FIELD, `is not a Parley thread export (its "format" is not "${EXPORT_FORMAT}").`);
  if (header.version !== EXPORT_VERSION) {
    throw new InvalidInputError(FIELD, `is an export of version ${JSON.stringify(header.version)?.slice(0, 20)}; this server imports version ${EXPORT_VERSION}.`);
  }
  const parsed = threadExport.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'the document';
    throw new InvalidInputError(FIELD, `is not a valid thread export: ${where}: ${issue.message}`);
  }
  return parsed.data;
}
