import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { JobRunner } from './jobs';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra headers, e.g. a trigger's custom e-mail headers. */
  headers?: Record<string, string>;
  /** Files attached, their bytes in base64 (the message travels through the job queue as JSON). */
  attachments?: { filename: string; contentType: string; content: string }[];
}

export const MAIL_JOB = 'mail.send';
const FROM = 'Vigil <no-reply@vigil.example>';

const withAttachments = (message: MailMessage) => ({
  from: FROM,
  ...message,
  attachments: message.attachments?.map((file) => ({ ...file, encoding: 'base64' })),
});

/**
 * Sends e-mail through SMTP_URL; without one (development) each message is written as an .eml file
 * to DATA_DIR/outbox so a developer can open it.
 */
export function createMailTransport(options: { smtpUrl?: string; outboxDir: string }) {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return async (message: MailMessage) => void (await transport.sendMail(withAttachments(message)));
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return async (message: MailMessage) => {
    const info = await transport.sendMail(withAttachments(message));
    await mkdir(options.outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9]/g, '')}.eml`;
    await writeFile(path.join(options.outboxDir, name), info.message as Buffer);
  };
}

export type SendMail = (message: MailMessage) => Promise<void>;

/** E-mail goes through the durable job queue: an SMTP outage delays it, retries it, never loses it. */
export function defineMailJob(jobs: JobRunner, send: (message: MailMessage) => Promise<void>): SendMail {
  jobs.define<MailMessage>({
    name: MAIL_JOB,
    retry: { retryLimit: 8, retryDelay: 30, retryBackoff: true },
    handler: (message) => send(message),
  });
  return async (message) => void (await jobs.send(MAIL_JOB, message));
}
