import { z } from 'zod';

/** Params of every org-scoped route; the access hook has already checked the organisation. */
export const orgParamsSchema = z.object({ orgId: z.string() });
