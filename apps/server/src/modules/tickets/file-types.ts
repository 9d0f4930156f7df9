import { TICKET_FILE_TYPES } from '@vigil/contracts';

type Extension = keyof typeof TICKET_FILE_TYPES;

const startsWith = (bytes: Buffer, ...magic: number[]) =>
  bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);

const isPdf = (bytes: Buffer) => startsWith(bytes, 0x25, 0x50, 0x44, 0x46, 0x2d); // %PDF-
const isPng = (bytes: Buffer) => startsWith(bytes, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const isJpeg = (bytes: Buffer) => startsWith(bytes, 0xff, 0xd8, 0xff);
const isGif = (bytes: Buffer) =>
  startsWith(bytes, 0x47, 0x49, 0x46, 0x38, 0x37, 0x61) ||
  startsWith(bytes, 0x47, 0x49, 0x46, 0x38, 0x39, 0x61);
/** A ZIP archive (Office documents are ZIP files): a local file header, or the end of an empty one. */
const isZip = (bytes: Buffer) =>
  startsWith(bytes, 0x50, 0x4b, 0x03, 0x04) || startsWith(bytes, 0x50, 0x4b, 0x05, 0x06);

/** UTF-8 text without NUL bytes (a BOM allowed). */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const CHECKS: Record<Extension, (bytes: Buffer) => boolean> = {
  pdf: isPdf,
  png: isPng,
  jpg: isJpeg,
  jpeg: isJpeg,
  gif: isGif,
  zip: isZip,
  docx: isZip,
  xlsx: isZip,
  pptx: isZip,
  txt: isText,
  log: isText,
  csv: isText,
};

/**
 * The content type a ticket file is kept and served as: the one of its extension when its bytes are
 * of that type, undefined when the extension is not accepted or the bytes do not match.
 */
export function checkedContentType(filename: string, bytes: Buffer): string | undefined {
  const dot = filename.lastIndexOf('.');
  const extension = dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
  if (!Object.hasOwn(TICKET_FILE_TYPES, extension)) return undefined;
  const known = extension as Extension;
  return CHECKS[known](bytes) ? TICKET_FILE_TYPES[known] : undefined;
}

/**
 * The name a file is kept under: the last path segment of what the client sent, without control
 * characters, at most 200 characters.
 */
export function safeFileName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (clean || 'file').slice(-200);
}

/** `attachment; filename=...` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
