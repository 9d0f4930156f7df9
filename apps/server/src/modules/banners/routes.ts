import { bannerInputSchema, bannerSchema, type Banner } from '@vigil/contracts';
import { and, asc, desc, eq, gt, isNull, notExists, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, notFound } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { bannerDismissals, banners } from './tables';

const tags = ['banners'];
type BannerRow = typeof banners.$inferSelect;

const toBanner = (row: BannerRow): Banner => ({
  id: row.id,
  type: row.type,
  title: row.title,
  message: row.message,
  hyperlink: row.hyperlink,
});
const isActive = (row: BannerRow, now = new Date()) => row.endsAt === null || row.endsAt > now;
const activeNow = () => or(isNull(banners.endsAt), gt(banners.endsAt, new Date()));

const adminBannerSchema = bannerSchema.extend({
  endsAt: z.string().nullable(),
  createdAt: z.string(),
  active: z.boolean(),
});

function assertProviderAdmin(access: AccessContext) {
  if (!access.org.isProvider)
    throw accessDenied('PERMISSION_DENIED', 'Banners are managed from the provider organisation');
}

export const bannerRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/all/banners',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Banners to show the signed-in user',
          description: 'Active banners the user has not dismissed, oldest first.',
          response: { 200: z.array(bannerSchema) },
        },
      },
      async (request) => {
        const userId = request.session!.user.id;
        const rows = await db
          .select()
          .from(banners)
          .where(
            and(
              activeNow(),
              notExists(
                db
                  .select()
                  .from(bannerDismissals)
                  .where(and(eq(bannerDismissals.bannerId, banners.id), eq(bannerDismissals.userId, userId))),
              ),
            ),
          )
          .orderBy(asc(banners.createdAt));
        return rows.map(toBanner);
      },
    );

    app.post(
      '/api/banners/:id/dismiss',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Dismiss a banner',
          description: 'Remembered for the user; the next undismissed banner shows instead.',
          params: z.object({ id: z.uuid() }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const [banner] = await db
          .select({ id: banners.id })
          .from(banners)
          .where(eq(banners.id, request.params.id));
        if (!banner) throw notFound('banner');
        await db
          .insert(bannerDismissals)
          .values({ bannerId: banner.id, userId: request.session!.user.id })
          .onConflictDoNothing();
        return reply.status(204).send(null);
      },
    );

    const adminBase = '/api/org/:orgId/banners';
    app.get(
      adminBase,
      {
        config: { access: { permission: 'TRAC_ADMIN' } },
        schema: {
          tags,
          summary: 'Every banner (provider administrators)',
          description: 'Newest first, ended ones included.',
          params: orgParamsSchema,
          response: { 200: z.object({ items: z.array(adminBannerSchema), total: z.number() }) },
        },
      },
      async (request) => {
        assertProviderAdmin(accessOf(request));
        const rows = await db.select().from(banners).orderBy(desc(banners.createdAt));
        const items = rows.map((row) => ({
          ...toBanner(row),
          endsAt: row.endsAt?.toISOString() ?? null,
          createdAt: row.createdAt.toISOString(),
          active: isActive(row),
        }));
        return { items, total: items.length };
      },
    );

    app.post(
      adminBase,
      {
        config: { access: { permission: 'TRAC_ADMIN' } },
        schema: {
          tags,
          summary: 'Show a banner to every user',
          description: 'Shown until `endsAt`, or until ended.',
          params: orgParamsSchema,
          body: bannerInputSchema,
          response: { 201: bannerSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        assertProviderAdmin(access);
        const [row] = await db
          .insert(banners)
          .values({
            ...request.body,
            endsAt: request.body.endsAt ? new Date(request.body.endsAt) : null,
            createdBy: access.user.id,
          })
          .returning();
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'banner.created',
          targetType: 'banner',
          targetId: row!.id,
          details: { title: row!.title, type: row!.type },
          ip: request.ip,
        });
        return reply.status(201).send(toBanner(row!));
      },
    );

    app.post(
      `${adminBase}/:id/end`,
      {
        config: { access: { permission: 'TRAC_ADMIN' } },
        schema: {
          tags,
          summary: 'End a banner now',
          description: 'It disappears for every user.',
          params: orgParamsSchema.extend({ id: z.uuid() }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        assertProviderAdmin(access);
        const ended = await db
          .update(banners)
          .set({ endsAt: new Date() })
          .where(and(eq(banners.id, request.params.id), activeNow()))
          .returning({ id: banners.id });
        if (ended.length === 0) throw notFound('active banner');
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'banner.ended',
          targetType: 'banner',
          targetId: request.params.id,
          ip: request.ip,
        });
        return reply.status(204).send(null);
      },
    );
  };
