import type { SendMail } from '../../platform/mail';
import type { TriggerRow } from './evaluate';

export interface NotifiedAlert {
  title: string;
  severity: string;
  matchCount: number;
  windowStart: Date;
  windowEnd: Date;
}

const describe = (alert: NotifiedAlert) =>
  `${alert.title}\nSeverity: ${alert.severity}\nMatches: ${alert.matchCount}\n` +
  `Window: ${alert.windowStart.toISOString()} to ${alert.windowEnd.toISOString()}`;

/**
 * E-mails a run's alerts to the trigger's recipients with its custom headers: one message per alert,
 * or with the digest option one message listing them all.
 */
export async function notifyRecipients(sendMail: SendMail, trigger: TriggerRow, alerts: NotifiedAlert[]) {
  if (alerts.length === 0 || trigger.emailRecipients.length === 0) return;
  const base = { to: trigger.emailRecipients.join(', '), headers: trigger.customHeaders };
  if (trigger.emailDigest) {
    await sendMail({
      ...base,
      subject: `[Vigil] ${trigger.name}: ${alerts.length} alert${alerts.length === 1 ? '' : 's'}`,
      text: alerts.map(describe).join('\n\n'),
    });
    return;
  }
  for (const alert of alerts) {
    await sendMail({
      ...base,
      subject: `[Vigil] ${alert.severity} alert: ${alert.title}`,
      text: describe(alert),
    });
  }
}
