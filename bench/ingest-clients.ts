/**
 * The ingest benchmark's HTTP clients, run in a child process so that the server's process does not
 * also build requests and read answers. Sent the batches, the URL and the token; answers the time
 * from its first request to its last answer, or the first failure, and exits.
 */

export interface IngestClientsInput {
  url: string;
  token: string;
  bodies: string[];
  clients: number;
}

export type IngestClientsOutput = { ms: number } | { error: string };

async function send({ url, token, bodies, clients }: IngestClientsInput): Promise<number> {
  let next = 0;
  const client = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body,
      });
      const answer = (await response.json()) as { accepted?: number; rejectedCount?: number };
      if (response.status !== 200 || answer.rejectedCount !== 0) {
        throw new Error(`ingest answered ${response.status}: ${JSON.stringify(answer).slice(0, 500)}`);
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  return performance.now() - start;
}

process.once('message', (input: IngestClientsInput) => {
  const answer = (output: IngestClientsOutput) => process.send!(output, () => process.exit(0));
  send(input).then(
    (ms) => answer({ ms }),
    (error: unknown) => answer({ error: String(error) }),
  );
});
