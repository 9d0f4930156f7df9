import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const recipients = (mail: ParsedMail) =>
  [mail.to]
    .flat()
    .flatMap((address) => address?.value.map((entry) => entry.address?.toLowerCase() ?? '') ?? []);

export interface TestSmtpServer {
  url: string;
  messages: ParsedMail[];
  /** Resolves with the first message to `to` (and meeting `matches`) that arrives or has arrived. */
  waitForMessage(
    to: string,
    timeoutMs?: number,
    matches?: (mail: ParsedMail) => boolean,
  ): Promise<ParsedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that keeps what it receives, and also writes each message's text to
 * `saveTo` (as <recipient>.<n>.txt) for tests in another process.
 */
export async function startSmtpServer(options: { saveTo?: string } = {}): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          messages.push(mail);
          if (options.saveTo) {
            for (const recipient of recipients(mail)) {
              await writeFile(
                path.join(options.saveTo, `${recipient}.${messages.length}.txt`),
                mail.text ?? '',
              );
            }
          }
          callback();
        })
        .catch(callback);
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitForMessage(to, timeoutMs = 20_000, matches = () => true) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find((mail) => recipients(mail).includes(to.toLowerCase()) && matches(mail));
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`No e-mail to ${to} arrived`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
