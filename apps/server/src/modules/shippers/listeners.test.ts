import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, waitForHealth, type ServerProcess } from '../../../test/server-process';

let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'vigil-listeners-'));
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the server process with ELASTIC_PORT and SYSLOG_PORT', () => {
  it('opens both listeners next to the API and closes them on SIGTERM', async () => {
    const [port, elasticPort, syslogPort] = [await freePort(), await freePort(), await freePort()];
    server = spawnServer(
      {
        DATA_DIR: dataDir,
        DEMO_DATA: 'false',
        HOST: '127.0.0.1',
        ELASTIC_PORT: String(elasticPort),
        SYSLOG_PORT: String(syslogPort),
      },
      port,
    );
    await waitForHealth(server);
    const elastic = await fetch(`http://127.0.0.1:${elasticPort}/`);
    expect(elastic.status).toBe(401);
    expect(elastic.headers.get('x-elastic-product')).toBe('Elasticsearch');
    await new Promise<void>((resolve, reject) => {
      const socket = connect(syslogPort, '127.0.0.1', () => socket.end('<13>1 - - - - - - no token\n'));
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    expect(await server.stop('SIGTERM')).toBe(0);
    await expect(fetch(`http://127.0.0.1:${elasticPort}/`)).rejects.toThrow();
  }, 90_000);
});
