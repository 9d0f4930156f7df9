import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, spawnServer, waitForHealth } from '../../server/test/server-process';
import { startSamlIdp } from '../../server/test/saml-idp';
import { startLocalS3Server } from '../../server/test/s3-server';
import { startSmtpServer } from '../../server/test/smtp';

/**
 * Starts, for the whole run, a loopback SMTP server (its messages land in E2E_MAIL_DIR), a local
 * SAML identity provider (E2E_IDP), a local S3 server (E2E_S3_ENDPOINT) and the
 * real server serving the built web app at http://localhost (WebAuthn needs that host), with a
 * temporary DATA_DIR and known passwords; stops both afterwards.
 */
export default async function globalSetup() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vigil-e2e-'));
  const mailDir = path.join(dataDir, 'mail');
  await mkdir(mailDir);
  const smtp = await startSmtpServer({ saveTo: mailDir });
  const idp = await startSamlIdp({ email: 'nobody@idp.example' });
  // S3 log sources (the demo's and those the tests add) are read from a local S3 server, through
  // roles its STS lets the server assume (tests add them); 'e2e-owner' uploads, the server's key
  // only calls STS.
  const s3 = await startLocalS3Server({ ownerKeyId: 'e2e-owner' });
  s3.createBucket('harbor-cloudtrail-logs');
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const password = 'e2e-Demo-password-58';
  const server = spawnServer(
    {
      DATA_DIR: path.join(dataDir, 'server'),
      PUBLIC_URL: baseUrl,
      SMTP_URL: smtp.url,
      BOOTSTRAP_ADMIN_PASSWORD: password,
      DEMO_PASSWORD: password,
      S3_ENDPOINT: s3.endpoint,
      STS_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'e2e-key',
      S3_SECRET_ACCESS_KEY: 'e2e-secret',
    },
    port,
  );
  await waitForHealth(server);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_PASSWORD = password;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_S3_ENDPOINT = s3.endpoint;
  process.env.E2E_IDP = JSON.stringify({
    entryPoint: idp.entryPoint,
    issuer: idp.issuer,
    certificate: idp.certificate,
  });
  return async () => {
    await server.stop('SIGTERM');
    await smtp.close();
    await idp.close();
    await s3.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}
