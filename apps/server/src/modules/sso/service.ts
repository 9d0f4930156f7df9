import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { SamlEnabledResponse } from '@vigil/contracts';
import { DOMParser } from '@xmldom/xmldom';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { normaliseEmail } from '../users/repo';
import { ExpiringMap } from './expiring-map';
import { findProviderById, findProviderForDomain, findUserForSignIn, type SamlProvider } from './repo';

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const BEARER_METHOD = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** A sign-in started here must come back from the identity provider within this time. */
const REQUEST_LIFETIME_MS = 15 * 60_000;
/** Tolerated difference between this server's clock and the identity provider's. */
const CLOCK_SKEW_MS = 60_000;
/** The browser posts an assertion as soon as it is issued; older ones are refused whatever their conditions say. */
const MAX_ASSERTION_AGE_MS = 5 * 60_000;
/** An accepted assertion is remembered for as long as it could pass the age check again. */
const REPLAY_WINDOW_MS = MAX_ASSERTION_AGE_MS + 2 * CLOCK_SKEW_MS;
const MAX_REMEMBERED = 100_000;

/** Attributes read when the NameID is not an e-mail (Entra ID names the claim by URI). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];

export type SamlFailureReason =
  | 'malformed_response'
  | 'unknown_request'
  | 'provider_disabled'
  | 'invalid_response'
  | 'issuer_mismatch'
  | 'recipient_mismatch'
  | 'stale_assertion'
  | 'replayed'
  | 'no_email'
  | 'domain_not_allowed'
  | 'unknown_user'
  | 'user_inactive';

export interface SamlFailure {
  ok: false;
  reason: SamlFailureReason;
  provider?: SamlProvider;
  userId?: string;
  /** Set only once the e-mail came from a validly signed assertion. */
  email?: string;
  /** The validator's message, for the server log. */
  detail?: string;
}

export type SamlSignIn = { ok: true; userId: string; provider: SamlProvider } | SamlFailure;

interface ServiceProviderUrls {
  entityId: string;
  acsUrl: string;
}

/** The service provider's entity id is the public base URL; the ACS lives under it. */
function serviceProviderUrls(publicUrl: string): ServiceProviderUrls {
  const base = publicUrl.replace(/\/+$/, '');
  return { entityId: base, acsUrl: `${base}/api/saml/acs` };
}

const emailSchema = z.email();
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

function parseXml(xml: string): Document {
  const fail = (message: unknown) => {
    throw new Error(String(message));
  };
  return new DOMParser({ errorHandler: { error: fail, fatalError: fail } }).parseFromString(xml, 'text/xml');
}

function childElements(parent: Element, localName: string, namespace = ASSERTION_NS): Element[] {
  return Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === node.ELEMENT_NODE &&
      (node as Element).localName === localName &&
      (node as Element).namespaceURI === namespace,
  );
}

const childText = (parent: Element, localName: string) =>
  childElements(parent, localName)[0]?.textContent?.trim() ?? null;

/**
 * What is read from a response before its signature is checked: only hints for finding the provider
 * to validate it with, never trusted on their own.
 */
function readUnverifiedResponse(samlResponse: string) {
  try {
    const root = parseXml(Buffer.from(samlResponse, 'base64').toString('utf8')).documentElement;
    if (!root || root.localName !== 'Response' || root.namespaceURI !== PROTOCOL_NS) return null;
    return { inResponseTo: root.getAttribute('InResponseTo') || null, issuer: childText(root, 'Issuer') };
  } catch {
    return null;
  }
}

/** Checks of a validly signed assertion that node-saml leaves to its caller. */
function checkAssertion(
  assertion: Element,
  provider: SamlProvider,
  responseIssuer: string | null,
  acsUrl: string,
): SamlFailureReason | null {
  // One certificate may serve several tenants of an identity provider: the issuer tells them apart.
  if (childText(assertion, 'Issuer') !== provider.idpIssuer) return 'issuer_mismatch';
  if (responseIssuer !== null && responseIssuer !== provider.idpIssuer) return 'issuer_mismatch';

  const confirmations = childElements(assertion, 'Subject').flatMap((subject) =>
    childElements(subject, 'SubjectConfirmation'),
  );
  const addressedHere = confirmations.some(
    (confirmation) =>
      confirmation.getAttribute('Method') === BEARER_METHOD &&
      childElements(confirmation, 'SubjectConfirmationData').some(
        (data) => data.getAttribute('Recipient') === acsUrl,
      ),
  );
  if (!addressedHere) return 'recipient_mismatch';

  const issuedAt = Date.parse(assertion.getAttribute('IssueInstant') ?? '');
  const now = Date.now();
  if (
    Number.isNaN(issuedAt) ||
    issuedAt > now + CLOCK_SKEW_MS ||
    issuedAt < now - MAX_ASSERTION_AGE_MS - CLOCK_SKEW_MS
  ) {
    return 'stale_assertion';
  }
  return null;
}

/** The NameID when it is an e-mail, otherwise the first e-mail attribute. */
function emailOf(profile: Profile): string | null {
  for (const candidate of [profile.nameID, ...EMAIL_ATTRIBUTES.map((name) => profile[name])]) {
    if (typeof candidate === 'string' && emailSchema.safeParse(candidate.trim()).success) {
      return normaliseEmail(candidate);
    }
  }
  return null;
}

/**
 * The service-provider side of SAML 2.0 web sign-in. Only answers to requests made here are accepted
 * (no identity-provider-initiated sign-in): each pending request remembers its provider, which is how
 * a response finds the certificate it must be signed with. Pending requests and accepted assertion
 * ids live in this process's memory.
 */
export class SamlService {
  private readonly pendingRequests = new ExpiringMap<{ providerId: string; instant: string }>(
    REQUEST_LIFETIME_MS,
    MAX_REMEMBERED,
  );
  private readonly acceptedAssertions = new ExpiringMap<true>(REPLAY_WINDOW_MS, MAX_REMEMBERED);

  /** Whether an e-mail's domain signs in through an identity provider, with the request to send there. */
  async checkEmail(db: Db, email: string, publicUrl: string): Promise<SamlEnabledResponse> {
    const provider = await findProviderForDomain(db, domainOf(normaliseEmail(email)));
    if (!provider) return { ssoEnabled: false };
    const message = await this.serviceProvider(
      provider,
      serviceProviderUrls(publicUrl),
    ).getAuthorizeMessageAsync('');
    return {
      ssoEnabled: true,
      ssoName: provider.name,
      ssoUrl: provider.entryPoint,
      samlRequest: String(message.SAMLRequest),
    };
  }

  /** Validates a posted SAMLResponse and answers the user it signs in, or why it does not. */
  async signIn(db: Db, samlResponse: string, publicUrl: string): Promise<SamlSignIn> {
    const unverified = readUnverifiedResponse(samlResponse);
    if (!unverified) return { ok: false, reason: 'malformed_response' };
    const requestId = unverified.inResponseTo;
    const pending = requestId ? this.pendingRequests.get(requestId) : undefined;
    if (!requestId || !pending) return { ok: false, reason: 'unknown_request' };
    const provider = await findProviderById(db, pending.providerId);
    if (!provider?.enabled) {
      return { ok: false, reason: 'provider_disabled', provider: provider ?? undefined };
    }

    const urls = serviceProviderUrls(publicUrl);
    let profile: Profile | null;
    try {
      ({ profile } = await this.serviceProvider(provider, urls).validatePostResponseAsync({
        SAMLResponse: samlResponse,
      }));
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: 'invalid_response', provider, detail };
    }
    const assertionXml = profile?.getAssertionXml?.();
    if (!profile || !assertionXml) return { ok: false, reason: 'invalid_response', provider };
    // node-saml keeps the request when the assertion does not repeat InResponseTo: one answer per request.
    this.pendingRequests.delete(requestId);

    const assertion = parseXml(assertionXml).documentElement;
    const refusal = checkAssertion(assertion, provider, unverified.issuer, urls.acsUrl);
    if (refusal) return { ok: false, reason: refusal, provider };
    if (!this.acceptedAssertions.setIfAbsent(`${provider.idpIssuer} ${assertion.getAttribute('ID')}`, true)) {
      return { ok: false, reason: 'replayed', provider };
    }

    const email = emailOf(profile);
    if (!email) return { ok: false, reason: 'no_email', provider };
    // An identity provider signs in only its own organisation's domains.
    if (!provider.emailDomains.includes(domainOf(email))) {
      return { ok: false, reason: 'domain_not_allowed', provider, email };
    }
    const user = await findUserForSignIn(db, email);
    if (!user) return { ok: false, reason: 'unknown_user', provider, email };
    if (!user.active) return { ok: false, reason: 'user_inactive', provider, email, userId: user.id };
    return { ok: true, userId: user.id, provider };
  }

  private serviceProvider(provider: SamlProvider, urls: ServiceProviderUrls): SAML {
    return new SAML({
      issuer: urls.entityId,
      audience: urls.entityId,
      callbackUrl: urls.acsUrl,
      entryPoint: provider.entryPoint,
      idpCert: provider.idpCert,
      wantAssertionsSigned: true,
      // Many identity providers sign only the assertion, which is what gets trusted.
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
      cacheProvider: this.requestCache(provider.id),
      // A fixed requested context makes some providers refuse users who signed in with MFA or passwordless.
      disableRequestedAuthnContext: true,
    });
  }

  /** node-saml's request cache, each request tied to the provider it was made for. */
  private requestCache(providerId: string): CacheProvider {
    const pendingRequests = this.pendingRequests;
    return {
      async saveAsync(key, value) {
        pendingRequests.set(key, { providerId, instant: value });
        return { value, createdAt: Date.now() };
      },
      async getAsync(key) {
        const pending = pendingRequests.get(key);
        return pending?.providerId === providerId ? pending.instant : null;
      },
      async removeAsync(key) {
        const pending = key === null ? undefined : pendingRequests.get(key);
        if (key === null || pending?.providerId !== providerId) return null;
        pendingRequests.delete(key);
        return pending.instant;
      },
    };
  }
}
