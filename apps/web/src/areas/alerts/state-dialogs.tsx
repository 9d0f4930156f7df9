import { Button, Group, Modal, SegmentedControl, Select, Stack, TextInput, Textarea } from '@mantine/core';
import {
  ALERT_DISMISSAL_REASONS,
  ALERT_NOTES_MAX_LENGTH,
  FRAUD_CERTAINTIES,
  FRAUD_TYPES,
  TICKET_TITLE_MAX_LENGTH,
  type AlertDismissalReason,
  type FraudCertainty,
  type FraudType,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface DismissValues {
  reason: AlertDismissalReason;
  notes?: string;
}

/** Dismissal needs a reason, and notes for Other (spec 3 section 5); `count` alerts at once. */
export function DismissDialog({
  count,
  loading,
  onSubmit,
  onClose,
}: {
  count: number;
  loading: boolean;
  onSubmit: (values: DismissValues) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<AlertDismissalReason | null>(null);
  const [notes, setNotes] = useState('');
  const [checked, setChecked] = useState(false);
  const reasonError = checked && !reason ? t('ALERT_DISMISS_REASON_REQUIRED') : undefined;
  const notesError =
    checked && reason === 'OTHER' && !notes.trim() ? t('ALERT_DISMISS_DETAILS_REQUIRED') : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!reason || (reason === 'OTHER' && !notes.trim())) return;
    onSubmit({ reason, ...(notes.trim() && { notes: notes.trim() }) });
  };

  return (
    <Modal opened onClose={onClose} title={t('alerts.dismissTitle', { count })} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Select
            label={t('alerts.reason')}
            required
            data={ALERT_DISMISSAL_REASONS.map((value) => ({ value, label: t(`alerts.reasons.${value}`) }))}
            value={reason}
            onChange={(value) => setReason(value as AlertDismissalReason | null)}
            error={reasonError}
            allowDeselect={false}
          />
          <Textarea
            label={t('alerts.notes')}
            required={reason === 'OTHER'}
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            maxLength={ALERT_NOTES_MAX_LENGTH}
            error={notesError}
            autosize
            minRows={2}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" loading={loading}>
              {t('alerts.dismiss')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export interface FraudValues {
  fraudType: FraudType;
  fraudCertainty: FraudCertainty;
  notes?: string;
}

/** The catalogue key of what is wrong with a fraud flag, the server's rules checked before sending. */
function fraudProblem(fraudType: FraudType | null, certainty: FraudCertainty): string | null {
  if (!fraudType) return 'ALERT_FRAUD_TYPE_REQUIRED';
  if (certainty === 'CONFIRMED' && fraudType === 'UNKNOWN') return 'ALERT_FRAUD_CONFIRMED_UNKNOWN';
  if (certainty === 'SUSPECTED' && fraudType === 'OTHER') return 'ALERT_FRAUD_SUSPECTED_OTHER';
  return null;
}

/** The fraud flag: a type, and the certainty's rules (confirmed is never Unknown, suspected never Other). */
export function FraudDialog({
  loading,
  onSubmit,
  onClose,
}: {
  loading: boolean;
  onSubmit: (values: FraudValues) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [fraudType, setFraudType] = useState<FraudType | null>(null);
  const [fraudCertainty, setFraudCertainty] = useState<FraudCertainty>('SUSPECTED');
  const [notes, setNotes] = useState('');
  const [checked, setChecked] = useState(false);
  const problem = fraudProblem(fraudType, fraudCertainty);
  const typeError = checked && problem ? t(problem) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!fraudType || problem) return;
    onSubmit({ fraudType, fraudCertainty, ...(notes.trim() && { notes: notes.trim() }) });
  };

  return (
    <Modal opened onClose={onClose} title={t('alerts.flagTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Select
            label={t('alerts.certainty')}
            data={FRAUD_CERTAINTIES.map((value) => ({ value, label: t(`alerts.certainties.${value}`) }))}
            value={fraudCertainty}
            onChange={(value) => value && setFraudCertainty(value as FraudCertainty)}
            allowDeselect={false}
          />
          <Select
            label={t('alerts.fraudType')}
            required
            data={FRAUD_TYPES.map((value) => ({ value, label: t(`alerts.fraudTypes.${value}`) }))}
            value={fraudType}
            onChange={(value) => setFraudType(value as FraudType | null)}
            error={typeError}
            allowDeselect={false}
          />
          <Textarea
            label={t('alerts.notes')}
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            maxLength={ALERT_NOTES_MAX_LENGTH}
            autosize
            minRows={2}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" loading={loading}>
              {t('alerts.flag')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export type EscalateValues = { mode: 'new'; title?: string } | { mode: 'existing'; ticketSlug: string };

/**
 * Escalation (spec 3): to a new incident made from the alerts (with the Incidents edit permission), or
 * to an existing incident named by its slug.
 */
export function EscalateDialog({
  count,
  canCreate,
  loading,
  onSubmit,
  onClose,
}: {
  count: number;
  canCreate: boolean;
  loading: boolean;
  onSubmit: (values: EscalateValues) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'new' | 'existing'>(canCreate ? 'new' : 'existing');
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState('');
  const [checked, setChecked] = useState(false);
  const slugError =
    checked && mode === 'existing' && !slug.trim() ? t('ALERT_ESCALATION_NEEDS_TICKET') : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (mode === 'new') onSubmit({ mode, ...(title.trim() && { title: title.trim() }) });
    else if (slug.trim()) onSubmit({ mode, ticketSlug: slug.trim() });
  };

  return (
    <Modal opened onClose={onClose} title={t('alerts.escalateTitle', { count })} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {canCreate && (
            <SegmentedControl
              aria-label={t('alerts.escalateTo')}
              value={mode}
              onChange={(value) => setMode(value as 'new' | 'existing')}
              data={[
                { value: 'new', label: t('alerts.newIncident') },
                { value: 'existing', label: t('alerts.existingIncident') },
              ]}
            />
          )}
          {mode === 'new' ? (
            <TextInput
              label={t('alerts.incidentTitle')}
              description={t('alerts.incidentTitleHint')}
              value={title}
              onChange={(event) => setTitle(event.currentTarget.value)}
              maxLength={TICKET_TITLE_MAX_LENGTH}
            />
          ) : (
            <TextInput
              label={t('alerts.incidentSlug')}
              placeholder="INC-12"
              required
              value={slug}
              onChange={(event) => setSlug(event.currentTarget.value)}
              error={slugError}
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={loading}>
              {t('alerts.escalate')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
