import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

/** One uploaded file, written to a temporary folder. */
export interface SpooledFile {
  /** The name the client gave, or `file<n>` when it gave none. */
  filename: string;
  path: string;
  bytes: number;
}

/** Why an upload was refused before any of it was read. */
export type UploadRefusal =
  { reason: 'notMultipart' } | { reason: 'tooManyFiles' } | { reason: 'fileTooLarge'; filename: string };

export class UploadRefusedError extends Error {
  override readonly name = 'UploadRefusedError';
  constructor(readonly refusal: UploadRefusal) {
    super(`Upload refused: ${refusal.reason}`);
  }
}

/** Files of a multipart request, on disk, and the function that removes them again. */
export interface SpooledUpload {
  files: SpooledFile[];
  /** The temporary folder holding them, for the caller's own scratch files. */
  folder: string;
  remove(): Promise<void>;
}

/**
 * Writes every file part of a multipart request to a fresh folder under the OS temporary folder,
 * one at a time, so that an upload is read in two passes without holding it in memory. The limits
 * are those @fastify/multipart was registered with (files, fileSize): a file over the size limit or
 * one file too many ends it with UploadRefusedError, the folder already removed. Other fields are
 * ignored.
 */
export async function spoolUploadedFiles(request: FastifyRequest, prefix: string): Promise<SpooledUpload> {
  if (!request.isMultipart()) throw new UploadRefusedError({ reason: 'notMultipart' });
  const folder = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const remove = () => rm(folder, { recursive: true, force: true });
  const files: SpooledFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      const filename = part.filename || `file${files.length + 1}`;
      const filePath = path.join(folder, `${files.length + 1}.upload`);
      await pipeline(part.file, createWriteStream(filePath));
      if (part.file.truncated) throw new UploadRefusedError({ reason: 'fileTooLarge', filename });
      files.push({ filename, path: filePath, bytes: (await stat(filePath)).size });
    }
  } catch (error) {
    await remove();
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_FILES_LIMIT') throw new UploadRefusedError({ reason: 'tooManyFiles' });
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      const part = (error as { part?: { filename?: string } }).part;
      throw new UploadRefusedError({ reason: 'fileTooLarge', filename: part?.filename ?? '' });
    }
    throw error;
  }
  return { files, folder, remove };
}
