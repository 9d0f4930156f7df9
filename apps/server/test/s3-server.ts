import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredObject {
  body: Buffer;
  etag: string;
  lastModified: Date;
}

/** A role the server's STS lets callers assume, with the external id its trust policy requires. */
export interface LocalRole {
  arn: string;
  externalId: string;
  /** The buckets the role's temporary credentials may list and read. */
  buckets: string[];
}

export interface LocalS3Server {
  /** `http://127.0.0.1:<port>`, for the client's S3 and STS endpoints (path-style addressing). */
  endpoint: string;
  /** The bucket owner's access key id: it may do everything (create buckets, put objects). */
  ownerKeyId: string;
  addRole(role: LocalRole): void;
  createBucket(name: string): void;
  putObject(bucket: string, key: string, body: string | Buffer): void;
  /** Requests received, as `METHOD path?query`. */
  requests: string[];
  close(): Promise<void>;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

function sendXml(response: ServerResponse, status: number, xml: string) {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`);
}

function sendError(response: ServerResponse, status: number, code: string, message: string) {
  sendXml(response, status, `<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`);
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** The access key id of a SigV4 `Authorization` header (the signature itself is not verified). */
const accessKeyIdOf = (request: IncomingMessage) =>
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\//.exec(String(request.headers.authorization ?? ''))?.[1];

/**
 * A small S3-compatible server on loopback speaking the REST calls the AWS SDK sends with path-style
 * addressing: CreateBucket, HeadBucket, ListObjectsV2 (prefix, max-keys, continuation tokens), GetObject,
 * HeadObject and PutObject; and STS AssumeRole (POST form on `/`) for the roles added with `addRole`.
 * S3 requests are allowed to the owner's key and to a role's temporary keys for that role's buckets;
 * others (unsigned, other keys) are refused with 403 AccessDenied, like S3 does. Any signed caller may
 * call AssumeRole, which answers 403 unless the role exists and the external id is the one it requires.
 */
export async function startLocalS3Server(
  options: { maxKeys?: number; ownerKeyId?: string } = {},
): Promise<LocalS3Server> {
  const ownerKeyId = options.ownerKeyId ?? 'local-s3-owner';
  const buckets = new Map<string, Map<string, StoredObject>>();
  const requests: string[] = [];
  const roles = new Map<string, LocalRole>();
  /** Temporary access key id -> the role it was issued for. */
  const sessions = new Map<string, LocalRole>();

  const assumeRole = (response: ServerResponse, form: URLSearchParams) => {
    const role = roles.get(form.get('RoleArn') ?? '');
    if (!role || form.get('ExternalId') !== role.externalId) {
      const message = `User is not authorized to perform: sts:AssumeRole on resource: ${form.get('RoleArn')}`;
      return sendXml(
        response,
        403,
        `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type>` +
          `<Code>AccessDenied</Code><Message>${escapeXml(message)}</Message></Error><RequestId>local</RequestId></ErrorResponse>`,
      );
    }
    const accessKeyId = `ASIA${randomBytes(8).toString('hex').toUpperCase()}`;
    sessions.set(accessKeyId, role);
    const expiration = new Date(Date.now() + Number(form.get('DurationSeconds') ?? 3600) * 1000);
    const session = escapeXml(form.get('RoleSessionName') ?? '');
    return sendXml(
      response,
      200,
      `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>` +
        `<Credentials><AccessKeyId>${accessKeyId}</AccessKeyId><SecretAccessKey>${randomBytes(16).toString('hex')}</SecretAccessKey>` +
        `<SessionToken>${randomBytes(24).toString('base64')}</SessionToken><Expiration>${expiration.toISOString()}</Expiration></Credentials>` +
        `<AssumedRoleUser><AssumedRoleId>AROALOCAL:${session}</AssumedRoleId>` +
        `<Arn>${escapeXml(role.arn.replace(':iam:', ':sts:').replace(':role/', ':assumed-role/'))}/${session}</Arn></AssumedRoleUser>` +
        `</AssumeRoleResult><ResponseMetadata><RequestId>local</RequestId></ResponseMetadata></AssumeRoleResponse>`,
    );
  };
  const put = (bucket: string, key: string, body: Buffer) => {
    buckets.get(bucket)!.set(key, {
      body,
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      lastModified: new Date(),
    });
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      // A loopback control call for tests in other processes: add a role (JSON LocalRole).
      if (request.method === 'POST' && url.pathname === '/_local/roles') {
        const role = JSON.parse((await readBody(request)).toString()) as LocalRole;
        roles.set(role.arn, role);
        return void response.writeHead(204).end();
      }
      const keyId = accessKeyIdOf(request);
      if (!keyId) return sendError(response, 403, 'AccessDenied', 'Access Denied');
      const [, bucketName = '', ...rest] = url.pathname.split('/');
      if (request.method === 'POST' && bucketName === '') {
        const form = new URLSearchParams((await readBody(request)).toString());
        if (form.get('Action') === 'AssumeRole') return assumeRole(response, form);
        return sendError(response, 501, 'NotImplemented', 'Not implemented');
      }
      const allowed =
        keyId === ownerKeyId || sessions.get(keyId)?.buckets.includes(decodeURIComponent(bucketName));
      if (!allowed) return sendError(response, 403, 'AccessDenied', 'Access Denied');
      const key = decodeURIComponent(rest.join('/'));
      if (request.method === 'PUT' && key === '') {
        if (!buckets.has(decodeURIComponent(bucketName)))
          buckets.set(decodeURIComponent(bucketName), new Map());
        return void response.writeHead(200).end();
      }
      const bucket = buckets.get(decodeURIComponent(bucketName));
      if (!bucket) return sendError(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (key === '') {
        if (request.method === 'HEAD') return void response.writeHead(200).end();
        if (request.method !== 'GET' || url.searchParams.get('list-type') !== '2') {
          return sendError(response, 501, 'NotImplemented', 'Not implemented');
        }
        const prefix = url.searchParams.get('prefix') ?? '';
        const maxKeys = Math.min(Number(url.searchParams.get('max-keys') ?? 1000), options.maxKeys ?? 1000);
        const after = url.searchParams.get('continuation-token') ?? url.searchParams.get('start-after') ?? '';
        const keys = [...bucket.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
        const page = keys.slice(0, maxKeys);
        const truncated = keys.length > page.length;
        const contents = page
          .map((name) => {
            const object = bucket.get(name)!;
            return (
              `<Contents><Key>${escapeXml(name)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified>` +
              `<ETag>${escapeXml(object.etag)}</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
            );
          })
          .join('');
        return sendXml(
          response,
          200,
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(bucketName)}</Name>` +
            `<Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>` +
            `<IsTruncated>${truncated}</IsTruncated>${contents}` +
            (truncated ? `<NextContinuationToken>${escapeXml(page.at(-1)!)}</NextContinuationToken>` : '') +
            `</ListBucketResult>`,
        );
      }
      if (request.method === 'PUT') {
        put(decodeURIComponent(bucketName), key, await readBody(request));
        response.writeHead(200, { etag: bucket.get(key)!.etag }).end();
        return;
      }
      const object = bucket.get(key);
      if (!object) return sendError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
      const headers = {
        'content-type': 'application/octet-stream',
        'content-length': String(object.body.length),
        etag: object.etag,
        'last-modified': object.lastModified.toUTCString(),
      };
      if (request.method === 'HEAD') return void response.writeHead(200, headers).end();
      response.writeHead(200, headers).end(object.body);
    })().catch((error: unknown) => sendError(response, 500, 'InternalError', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    ownerKeyId,
    addRole: (role) => void roles.set(role.arn, role),
    requests,
    createBucket: (name) => void buckets.set(name, new Map()),
    putObject: (bucket, key, body) => put(bucket, key, Buffer.from(body)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Adds a role to a local S3 server running in another process (see `/_local/roles`). */
export async function addLocalS3Role(endpoint: string, role: LocalRole): Promise<void> {
  const response = await fetch(`${endpoint}/_local/roles`, { method: 'POST', body: JSON.stringify(role) });
  if (!response.ok) throw new Error(`Adding the role failed: ${response.status}`);
}
