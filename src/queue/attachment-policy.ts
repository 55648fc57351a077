import { InvalidInputError } from '../domain/errors.ts';

/** Longest stored file name, in UTF-16 code units (the extension is kept when a name is cut). */
export const MAX_FILENAME_CHARS = 255;
const FALLBACK_FILENAME = 'attachment';

// C0 and C1 controls, DEL, and the bidirectional overrides that make `gpj.exe` read as `exe.jpg`.
const UNSAFE_FILENAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A file name safe to store and to hand back in a Content-Disposition header: the base name only
 * (no folders, on any platform), without control characters, without leading dots or surrounding
 * spaces, at most MAX_FILENAME_CHARS long, never empty.
 */
export function safeFilename(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const cleaned = base.replace(UNSAFE_FILENAME_CHARS, '').replace(UNPAIRED_SURROGATE, '').replace(/^[\s.]+/, '').trim();
  if (cleaned.length === 0) return FALLBACK_FILENAME;
  if (cleaned.length <= MAX_FILENAME_CHARS) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : '';
  return cutAtCodePoint(cleaned.slice(0, cleaned.length - extension.length), MAX_FILENAME_CHARS - extension.length) + extension;
}

function cutAtCodePoint(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

type Format = { signatures?: readonly (readonly (number | null)[])[]; text?: boolean };

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The media types Parley stores. A type with signatures must start with one of them (null matches
 * any byte); a text type must be UTF-8 without NUL bytes. Anything else may be sent as
 * application/octet-stream, which is stored as is and only ever served as a download.
 */
export const MEDIA_TYPES: Readonly<Record<string, Format>> = {
  'image/png': { signatures: [[0x89, ...ascii('PNG\r\n\x1a\n')]] },
  'image/jpeg': { signatures: [[0xff, 0xd8, 0xff]] },
  'image/gif': { signatures: [ascii('GIF87a'), ascii('GIF89a')] },
  'image/webp': { signatures: [[...ascii('RIFF'), null, null, null, null, ...ascii('WEBP')]] },
  'application/pdf': { signatures: [ascii('%PDF-')] },
  'application/zip': { signatures: [[0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06]] },
  'text/plain': { text: true },
  'text/markdown': { text: true },
  'text/csv': { text: true },
  'application/json': { text: true },
  'application/octet-stream': {},
};

function startsWith(data: Uint8Array, signature: readonly (number | null)[]): boolean {
  return data.length >= signature.length && signature.every((byte, index) => byte === null || data[index] === byte);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isText(data: Uint8Array): boolean {
  if (data.includes(0)) return false;
  try {
    utf8.decode(data);
    return true;
  } catch {
    return false;
  }
}

/** The type the leading bytes show, among the types that have signatures. */
function sniff(data: Uint8Array): string | null {
  for (const [type, format] of Object.entries(MEDIA_TYPES)) {
    if (format.signatures?.some((signature) => startsWith(data, signature))) return type;
  }
  return null;
}

/**
 * The media type to store for a file: the declared one (without parameters) when it is allowed and
 * the bytes agree; without a declared type (or application/octet-stream), what the bytes show. Anything else is refused, naming
 * the file.
 */
export function checkedMediaType(filename: string, declared: string, data: Uint8Array): string {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  const name = filename.slice(0, 80);
  // Browsers send application/octet-stream for a file whose type they do not know.
  if (type === '' || type === 'application/octet-stream') {
    return sniff(data) ?? (isText(data) ? 'text/plain' : 'application/octet-stream');
  }
  const format = MEDIA_TYPES[type];
  if (!format) {
    throw new InvalidInputError(
      'attachments',
      `${name}: media type ${type.slice(0, 80)} is not accepted; accepted: ${Object.keys(MEDIA_TYPES).join(', ')}.`,
    );
  }
  if (format.signatures && !format.signatures.some((signature) => startsWith(data, signature))) {
    throw new InvalidInputError('attachments', `${name}: the content is not ${type} (its leading bytes do not match).`);
  }
  if (format.text && !isText(data)) {
    throw new InvalidInputError('attachments', `${name}: the content is not ${type} (it is not UTF-8 text).`);
  }
  return type;
}
