import { z } from 'zod';

const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a domain such as bank.example',
  );

/** A SAML identity provider of an organisation, as an administrator enters it. */
export const samlProviderInputSchema = z.object({
  name: z.string().trim().min(1).max(100),
  entryPoint: z.url({ protocol: /^https?$/ }),
  idpIssuer: z.string().trim().min(1).max(1024),
  /** PEM, or the base64 body of one. */
  idpCert: z.string().trim().min(1).max(20_000),
  emailDomains: z.array(domainSchema).min(1).max(50),
  enabled: z.boolean().default(true),
});
export type SamlProviderInput = z.infer<typeof samlProviderInputSchema>;

export const samlProviderSchema = samlProviderInputSchema.extend({
  id: z.string(),
  orgId: z.string(),
  createdAt: z.string(),
});
export type SamlProvider = z.infer<typeof samlProviderSchema>;
