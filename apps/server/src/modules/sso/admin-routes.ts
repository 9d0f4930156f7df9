import { X509Certificate } from 'node:crypto';
import { samlProviderInputSchema, samlProviderSchema, type SamlProviderInput } from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { conflict, invalidField, notFound } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import {
  deleteOrgProvider,
  findClaimedDomains,
  insertSamlProvider,
  listOrgProviders,
  updateOrgProvider,
  type SamlProvider,
} from './repo';

const tags = ['sso'];
const providerParams = orgParamsSchema.extend({ id: z.uuid() });

const toJson = (provider: SamlProvider) => ({
  id: provider.id,
  orgId: provider.orgId,
  name: provider.name,
  entryPoint: provider.entryPoint,
  idpIssuer: provider.idpIssuer,
  idpCert: provider.idpCert,
  emailDomains: provider.emailDomains,
  enabled: provider.enabled,
  createdAt: provider.createdAt.toISOString(),
});

/** A certificate node can read; a PEM body without its armour lines is accepted too. */
function normaliseCertificate(value: string): string {
  const pem = value.includes('-----BEGIN')
    ? value
    : `-----BEGIN CERTIFICATE-----\n${value.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`;
  try {
    return new X509Certificate(pem).toString();
  } catch {
    throw invalidField('idpCert', value.slice(0, 40), undefined, 'Not an X.509 certificate');
  }
}

async function validated(db: Db, input: SamlProviderInput, exceptId?: string) {
  const idpCert = normaliseCertificate(input.idpCert);
  const emailDomains = [...new Set(input.emailDomains)];
  const claimed = input.enabled ? await findClaimedDomains(db, emailDomains, exceptId) : [];
  if (claimed.length > 0) {
    throw conflict('SAML_DOMAIN_IN_USE', 'Another identity provider signs in these domains', {
      field: 'emailDomains',
      params: { domains: claimed.join(', ') },
    });
  }
  return { ...input, idpCert, emailDomains };
}

/** Organisation settings: the SAML identity providers its users sign in with. */
export const ssoAdminRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    const base = '/api/org/:orgId/sso/saml-providers';

    app.get(
      base,
      {
        config: { access: { permission: 'GLOBAL_SETTINGS_VIEW' } },
        schema: {
          tags,
          summary: 'SAML identity providers of the organisation',
          description: 'Sorted by name.',
          params: orgParamsSchema,
          response: { 200: z.object({ items: z.array(samlProviderSchema), total: z.number() }) },
        },
      },
      async (request) => {
        const items = (await listOrgProviders(db, accessOf(request).org.id)).map(toJson);
        return { items, total: items.length };
      },
    );

    app.post(
      base,
      {
        config: { access: { permission: 'GLOBAL_SETTINGS_EDIT' } },
        schema: {
          tags,
          summary: 'Add a SAML identity provider',
          description:
            'Users whose e-mail domain is listed sign in at the provider. A domain may belong to one enabled provider ' +
            '(409 SAML_DOMAIN_IN_USE); the certificate must be a readable X.509 certificate.',
          params: orgParamsSchema,
          body: samlProviderInputSchema,
          response: { 201: samlProviderSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const values = await validated(db, request.body);
        const provider = await insertSamlProvider(db, { ...values, orgId: access.org.id });
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'sso.provider_created',
          targetType: 'saml_provider',
          targetId: provider.id,
          details: { name: provider.name, emailDomains: provider.emailDomains },
          ip: request.ip,
        });
        return reply.status(201).send(toJson(provider));
      },
    );

    app.put(
      `${base}/:id`,
      {
        config: { access: { permission: 'GLOBAL_SETTINGS_EDIT' } },
        schema: {
          tags,
          summary: 'Change a SAML identity provider',
          description: 'Replaces every field. 404 for providers of other organisations.',
          params: providerParams,
          body: samlProviderInputSchema,
          response: { 200: samlProviderSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const values = await validated(db, request.body, request.params.id);
        const provider = await updateOrgProvider(db, access.org.id, request.params.id, values);
        if (!provider) throw notFound('SAML provider');
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'sso.provider_updated',
          targetType: 'saml_provider',
          targetId: provider.id,
          ip: request.ip,
        });
        return toJson(provider);
      },
    );

    app.delete(
      `${base}/:id`,
      {
        config: { access: { permission: 'GLOBAL_SETTINGS_EDIT' } },
        schema: {
          tags,
          summary: 'Remove a SAML identity provider',
          description: 'Its users sign in with a password again. 404 for providers of other organisations.',
          params: providerParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        if (!(await deleteOrgProvider(db, access.org.id, request.params.id))) throw notFound('SAML provider');
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'sso.provider_deleted',
          targetType: 'saml_provider',
          targetId: request.params.id,
          ip: request.ip,
        });
        return reply.status(204).send(null);
      },
    );
  };
