import {
  READINESS_ALERT_SLA_HOURS,
  READINESS_ASSESSMENT_MONTHS,
  READINESS_INCIDENT_DEFAULT_DAYS,
  READINESS_ON_TIME_PERCENT,
  READINESS_TASK_DEFAULT_DAYS,
  READINESS_WINDOW_DAYS,
  readinessSchema,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import { readiness } from './service';

const SCORING =
  `Each category scores the percent of its checks met; \`score\` is the mean of the four categories. ` +
  `Alerts and tickets are judged over the last ${READINESS_WINDOW_DAYS} days; a share check is met when at ` +
  `least ${READINESS_ON_TIME_PERCENT}% was handled in time (or nothing was due). FRAUD_PREVENTION: the fraud ` +
  `product, at least one active fraud trigger, at least one fraud threat source in use (own or subscribed), ` +
  `fraud alerts taken out of New within ${READINESS_ALERT_SLA_HOURS} hours of firing. THREAT_SURVEILLANCE: an ` +
  `active security trigger, a security threat source in use, security alerts worked within ` +
  `${READINESS_ALERT_SLA_HOURS} hours, incidents resolved, closed or invalidated by their SLA date, else due ` +
  `date, else ${READINESS_INCIDENT_DEFAULT_DAYS} days after opening. GOVERNANCE_PROGRAM: an active task ` +
  `schedule, and the tasks schedules created closed by their due date (else ${READINESS_TASK_DEFAULT_DAYS} ` +
  `days after creation). RISK_ASSESSMENT: a risk assessment completed in ` +
  `the last ${READINESS_ASSESSMENT_MONTHS} months, and the review schedules of risks and controls not late. Each check gives \`value\` (a count, or the number in time of \`total\`) and \`fixPath\`, the page ` +
  `where it is put right.`;

/** The cyber risk readiness dashboard (/home) and the readiness banner. */
export const homeRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/home/readiness',
      {
        // Any member; the service needs cyberRiskReadinessDashboard or cyberRiskReadinessBanner.
        config: { access: {} },
        schema: {
          tags: ['home'],
          summary: "The organisation's cyber risk readiness",
          description:
            'Open to members of an organisation with feature cyberRiskReadinessDashboard or ' +
            'cyberRiskReadinessBanner (otherwise 403 FEATURE_NOT_ENABLED); it shows counts, never records. ' +
            SCORING,
          params: orgParamsSchema,
          response: { 200: readinessSchema },
        },
      },
      async (request) => readiness(db, accessOf(request)),
    );
  };
