import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

export interface BuildResponseOptions {
  /** The AuthnRequest id answered; omitted for an unsolicited response. */
  inResponseTo?: string;
  acsUrl: string;
  audience: string;
  email: string;
  /** Defaults to the e-mail; an opaque id leaves the e-mail to the `email` attribute alone. */
  nameId?: string;
  /** `other-key` signs with a key the service provider does not know. */
  signWith?: 'idp' | 'other-key';
  notOnOrAfter?: Date;
  issuedAt?: Date;
  /** Defaults to the identity provider's own entity id. */
  issuer?: string;
  /** Defaults to a fresh id. */
  assertionId?: string;
}

export interface SamlIdp {
  /** Single sign-on URL: `GET` with a SAMLRequest query parameter. */
  entryPoint: string;
  issuer: string;
  /** PEM certificate of the signing key. */
  certificate: string;
  /** The e-mail the sign-on page signs in. */
  setEmail(email: string): void;
  /** A signed SAMLResponse, base64 as a browser form posts it. */
  buildResponse(options: BuildResponseOptions): string;
  close(): Promise<void>;
}

export interface AuthnRequestInfo {
  id: string;
  acsUrl: string;
  /** The service provider's entity id. */
  issuer: string;
  destination: string;
}

/** Reads a deflated, base64 AuthnRequest as sent in the SAMLRequest query parameter. */
export function readAuthnRequest(samlRequest: string): AuthnRequestInfo {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const request = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  if (request?.localName !== 'AuthnRequest') throw new Error('Not an AuthnRequest');
  const issuer = request.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0];
  return {
    id: request.getAttribute('ID') ?? '',
    acsUrl: request.getAttribute('AssertionConsumerServiceURL') ?? '',
    issuer: issuer?.textContent?.trim() ?? '',
    destination: request.getAttribute('Destination') ?? '',
  };
}

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const newId = () => `_${randomBytes(16).toString('hex')}`;

function rsaKeyPem() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}

/** A self-signed certificate for a key, made by the openssl command line. */
function selfSignedCertificate(privateKey: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'saml-idp-'));
  try {
    const keyFile = path.join(folder, 'key.pem');
    writeFileSync(keyFile, privateKey, { mode: 0o600 });
    return execFileSync(
      'openssl',
      ['req', '-x509', '-new', '-key', keyFile, '-subj', '/CN=Vigil test IdP', '-days', '2', '-sha256'],
      { encoding: 'utf8' },
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Signs the element with an enveloped signature placed after its Issuer, as SAML's schema orders it. */
function signElement(
  xml: string,
  localName: 'Assertion' | 'Response',
  privateKey: string,
  certificate?: string,
) {
  const element = `//*[local-name(.)='${localName}']`;
  const signature = new SignedXml({
    privateKey,
    publicCert: certificate,
    canonicalizationAlgorithm: EXCLUSIVE_C14N,
    signatureAlgorithm: RSA_SHA256,
  });
  signature.addReference({
    xpath: element,
    transforms: [ENVELOPED_SIGNATURE, EXCLUSIVE_C14N],
    digestAlgorithm: SHA256,
  });
  signature.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signature.getSignedXml();
}

/**
 * A local SAML identity provider for tests: it signs in whoever `setEmail` names, answering each
 * AuthnRequest with a page that posts a signed response (assertion and response signed, RSA-SHA256,
 * exclusive c14n) to the request's ACS URL.
 */
export async function startSamlIdp(options: { email: string }): Promise<SamlIdp> {
  const privateKey = rsaKeyPem();
  const otherKey = rsaKeyPem();
  const certificate = selfSignedCertificate(privateKey);
  let email = options.email;

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/idp`;

  const buildResponse = (input: BuildResponseOptions): string => {
    const issuedAt = input.issuedAt ?? new Date();
    const notOnOrAfter = (input.notOnOrAfter ?? new Date(issuedAt.getTime() + 5 * 60_000)).toISOString();
    const notBefore = new Date(issuedAt.getTime() - 30_000).toISOString();
    const instant = issuedAt.toISOString();
    const responseIssuer = escapeXml(input.issuer ?? issuer);
    const inResponseTo = input.inResponseTo ? ` InResponseTo="${escapeXml(input.inResponseTo)}"` : '';
    const acsUrl = escapeXml(input.acsUrl);
    const subject = escapeXml(input.email);
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ` +
      `xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" ` +
      `IssueInstant="${instant}" Destination="${acsUrl}"${inResponseTo}>` +
      `<saml:Issuer>${responseIssuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `<saml:Assertion ID="${escapeXml(input.assertionId ?? newId())}" Version="2.0" IssueInstant="${instant}">` +
      `<saml:Issuer>${responseIssuer}</saml:Issuer>` +
      `<saml:Subject>` +
      (input.nameId === undefined
        ? `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${subject}</saml:NameID>`
        : `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escapeXml(input.nameId)}</saml:NameID>`) +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${acsUrl}"/>` +
      `</saml:SubjectConfirmation>` +
      `</saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${escapeXml(input.audience)}</saml:Audience></saml:AudienceRestriction>` +
      `</saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="${newId()}">` +
      `<saml:AuthnContext><saml:AuthnContextClassRef>` +
      `urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport` +
      `</saml:AuthnContextClassRef></saml:AuthnContext>` +
      `</saml:AuthnStatement>` +
      `<saml:AttributeStatement>` +
      `<saml:Attribute Name="email"><saml:AttributeValue>${subject}</saml:AttributeValue></saml:Attribute>` +
      `</saml:AttributeStatement>` +
      `</saml:Assertion>` +
      `</samlp:Response>`;
    const [key, cert] = input.signWith === 'other-key' ? [otherKey, undefined] : [privateKey, certificate];
    const signed = signElement(signElement(xml, 'Assertion', key, cert), 'Response', key, cert);
    return Buffer.from(signed, 'utf8').toString('base64');
  };

  server.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', base);
    const samlRequest = url.searchParams.get('SAMLRequest');
    if (request.method !== 'GET' || url.pathname !== '/sso' || !samlRequest) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    let authnRequest: AuthnRequestInfo;
    try {
      authnRequest = readAuthnRequest(samlRequest);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('Invalid SAMLRequest');
      return;
    }
    const samlResponse = buildResponse({
      inResponseTo: authnRequest.id,
      acsUrl: authnRequest.acsUrl,
      audience: authnRequest.issuer,
      // Like Entra ID, a login hint names the account; otherwise the configured one signs in.
      email: url.searchParams.get('login_hint') ?? email,
    });
    const relayState = url.searchParams.get('RelayState');
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!DOCTYPE html><html><body onload="document.forms[0].submit()">` +
          `<form method="post" action="${escapeXml(authnRequest.acsUrl)}">` +
          `<input type="hidden" name="SAMLResponse" value="${escapeXml(samlResponse)}"/>` +
          (relayState ? `<input type="hidden" name="RelayState" value="${escapeXml(relayState)}"/>` : '') +
          `<noscript><button type="submit">Continue</button></noscript>` +
          `</form></body></html>`,
      );
  });

  return {
    entryPoint: `${base}/sso`,
    issuer,
    certificate,
    setEmail(next) {
      email = next;
    },
    buildResponse,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
