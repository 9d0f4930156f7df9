import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { startElasticListener } from './elastic';
import { startSyslogListener } from './syslog';

/** Starts the shipper listeners the configuration turns on; `close` stops them, storing what they hold. */
export async function startShipperListeners(config: Config, db: Db, log: FastifyBaseLogger) {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.all(closers.map((closeOne) => closeOne()));
  };
  try {
    if (config.ELASTIC_PORT !== undefined) {
      const host = config.ELASTIC_HOST ?? config.HOST;
      const elastic = await startElasticListener({ db, port: config.ELASTIC_PORT, host, log });
      closers.push(elastic.close);
      log.info({ host, port: elastic.port }, 'Elasticsearch-compatible listener started');
    }
    if (config.SYSLOG_PORT !== undefined) {
      const host = config.SYSLOG_HOST ?? config.HOST;
      const syslog = await startSyslogListener({
        db,
        port: config.SYSLOG_PORT,
        host,
        token: config.SYSLOG_TOKEN,
        log,
      });
      closers.push(syslog.close);
      log.info({ host, port: syslog.port }, 'syslog listener started (TCP and UDP)');
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}
