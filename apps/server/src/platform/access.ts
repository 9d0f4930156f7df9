import '@fastify/cookie';
import {
  hasSkuGate,
  resolveFeatureFlags,
  type FeatureFlag,
  type FeatureFlags,
  type Org,
  type OrgSettings,
  type Permission,
  type SkuGate,
} from '@vigil/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessDenied, notAuthenticated } from './errors';

export const SESSION_COOKIE = 'vigil_session';

/** What a route needs, declared in its `config.access`. Every org-scoped route must declare one. */
export interface RouteAccess {
  /** Any one of these codes opens the route; omitted means any member of the organisation. */
  permission?: Permission | Permission[];
  feature?: FeatureFlag;
  sku?: SkuGate;
}

/** Routes outside `/api/org/:orgId` say whether they need a signed-in user. */
export type RouteAuth = 'public' | 'user';

export interface SessionUser {
  id: string;
  homeOrgId: string;
  roleId: string;
  firstName: string;
  lastName: string;
  email: string;
  readOnlyMode: boolean;
}

export interface AuthenticatedSession {
  sessionId: string;
  secondFactorPending: boolean;
  user: SessionUser;
}

export interface OrgAccess {
  org: Org & { featureFlags: Partial<Record<string, boolean>>; settings: OrgSettings };
  /** Effective codes: in read-only mode only the _VIEW ones. */
  permissions: Permission[];
  /** The role's codes before read-only mode, e.g. to offer switching it off again. */
  rolePermissions: Permission[];
}

/** The per-request access context of an org-scoped route. */
export interface AccessContext {
  user: SessionUser;
  org: OrgAccess['org'];
  permissions: ReadonlySet<Permission>;
  rolePermissions: ReadonlySet<Permission>;
  features: FeatureFlags;
}

/** One row of the route register: who may reach a route. */
export interface RouteDeclaration {
  method: string;
  url: string;
  auth?: RouteAuth;
  access?: RouteAccess;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route with its declared access, for the isolation sweep and review. */
    routeDeclarations: RouteDeclaration[];
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    session: AuthenticatedSession | null;
    /** A signed-in session that still owes its second factor. */
    pendingSession: AuthenticatedSession | null;
    /** Set on org-scoped routes once the access hook has passed. */
    access: AccessContext | null;
  }
}

export interface AccessDeps {
  authenticate(token: string): Promise<AuthenticatedSession | null>;
  loadOrgAccess(user: SessionUser, orgId: string): Promise<OrgAccess | null>;
  /** Third-party routes (the API docs) that declare nothing. */
  exemptPrefixes?: string[];
}

const ORG_ROUTE_PREFIX = '/api/org/:orgId';

export function isOrgRoute(url: string) {
  return url === ORG_ROUTE_PREFIX || url.startsWith(`${ORG_ROUTE_PREFIX}/`);
}

/** The access context of a user in an organisation they may act in; `featureQuery` as the URL's `feature`. */
export function accessContextOf(
  user: SessionUser,
  orgAccess: OrgAccess,
  featureQuery?: string,
): AccessContext {
  return {
    user,
    org: orgAccess.org,
    permissions: new Set(orgAccess.permissions),
    rolePermissions: new Set(orgAccess.rolePermissions),
    features: resolveFeatureFlags(orgAccess.org.featureFlags, featureQuery),
  };
}

/** Pure check of a route's needs against an access context; the reason key when refused. */
export function refusalFor(access: RouteAccess, context: AccessContext) {
  const needed = access.permission === undefined ? [] : [access.permission].flat();
  if (needed.length > 0 && !needed.some((code) => context.permissions.has(code))) {
    return 'PERMISSION_DENIED' as const;
  }
  if (access.feature && !context.features[access.feature]) return 'FEATURE_NOT_ENABLED' as const;
  if (access.sku && !hasSkuGate(context.org.productSkus, access.sku)) return 'PRODUCT_NOT_ENTITLED' as const;
  return null;
}

/**
 * Records of the fraud domain (alerts, triggers, threat sources, watchlists) belong to the fraud
 * product: routes serving both domains check the domain a request names here (403
 * PRODUCT_NOT_ENTITLED), since a route-level `sku` would also refuse the security domain.
 */
export function assertDomainEntitled(context: AccessContext, domain: string) {
  if (domain === 'fraud' && !hasSkuGate(context.org.productSkus, 'fraud')) {
    throw accessDenied('PRODUCT_NOT_ENTITLED', 'The fraud domain needs a fraud product');
  }
}

/**
 * One hook guards every API route: it reads the session cookie, and on `/api/org/:orgId/...` checks
 * that the user may act in that organisation and holds what the route declares, before any handler
 * or body validation runs.
 */
export function registerAccessControl(app: FastifyInstance, deps: AccessDeps) {
  app.decorateRequest('session', null);
  app.decorateRequest('pendingSession', null);
  app.decorateRequest('access', null);

  app.decorate('routeDeclarations', [] as RouteDeclaration[]);
  app.addHook('onRoute', (route) => {
    if (isOrgRoute(route.url) && !route.config?.access) {
      throw new Error(`Org-scoped route ${route.method} ${route.url} declares no config.access`);
    }
    const exempt = deps.exemptPrefixes?.some((prefix) => route.url.startsWith(prefix));
    if (route.url.startsWith('/api/') && !isOrgRoute(route.url) && !route.config?.auth && !exempt) {
      throw new Error(`Route ${route.method} ${route.url} declares no config.auth`);
    }
    if (route.url.startsWith('/api/') && !exempt) {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        app.routeDeclarations.push({
          method,
          url: route.url,
          auth: route.config?.auth,
          access: route.config?.access,
        });
      }
    }
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const token = request.cookies[SESSION_COOKIE];
    const found = token ? await deps.authenticate(token) : null;
    // A session that still owes its second factor opens nothing but the second-factor steps.
    request.session = found && !found.secondFactorPending ? found : null;
    request.pendingSession = found?.secondFactorPending ? found : null;

    const config = request.routeOptions.config;
    const url = request.routeOptions.url ?? '';
    if (isOrgRoute(url)) {
      const session = request.session;
      if (!session) throw notAuthenticated();
      const { orgId } = request.params as { orgId: string };
      const orgAccess = await deps.loadOrgAccess(session.user, orgId);
      if (!orgAccess) throw accessDenied('ORG_NOT_AUTHORISED', 'Not authorised for this organisation');
      const context = accessContextOf(
        session.user,
        orgAccess,
        (request.query as { feature?: string })?.feature,
      );
      const refusal = refusalFor(config.access ?? {}, context);
      if (refusal) throw accessDenied(refusal, `Refused: ${refusal}`);
      request.access = context;
    } else if (config.auth === 'user' && !request.session) {
      throw notAuthenticated();
    }
  });
}

/** The access context of an org-scoped route; the hook guarantees it is there. */
export function accessOf(request: FastifyRequest): AccessContext {
  if (!request.access) throw new Error('accessOf() called outside an org-scoped route');
  return request.access;
}
