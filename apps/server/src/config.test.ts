import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DEMO_DATA).toBe(true);
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('reads booleans and numbers', () => {
    const config = loadConfig({ PORT: '9090', DEMO_DATA: 'false', DATABASE_URL: 'postgres://localhost/db' });
    expect(config).toMatchObject({ PORT: 9090, DEMO_DATA: false, DATABASE_URL: 'postgres://localhost/db' });
  });

  it('names each malformed variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SECRET_KEY: 'short', DEMO_DATA: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['PORT', 'DATABASE_URL', 'SECRET_KEY', 'DEMO_DATA']) expect(message).toContain(name);
    expect(message).toContain('"eighty"');
    expect(message).not.toContain('mysql://x');
  });

  it('leaves the shipper listeners off unless their ports are set', () => {
    const off = loadConfig({});
    expect([off.ELASTIC_PORT, off.SYSLOG_PORT, off.SYSLOG_TOKEN]).toEqual([undefined, undefined, undefined]);
    expect(loadConfig({ ELASTIC_PORT: '9200', SYSLOG_PORT: '514' })).toMatchObject({
      ELASTIC_PORT: 9200,
      SYSLOG_PORT: 514,
    });
    expect(() => loadConfig({ SYSLOG_PORT: '70000' })).toThrow('SYSLOG_PORT');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
