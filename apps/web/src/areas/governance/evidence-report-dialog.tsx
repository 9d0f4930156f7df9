import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  entitledRiskModules,
  evidenceReportElementsFor,
  type EvaluationPeriod,
  type EvidenceReportElement,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { describeError } from '../../lib/notify';
import { useCurrentOrg, usePermissions } from '../../lib/session';
import { periodPath } from './api';

/** Chooses the elements of a period's evidence report (those the user may read, all at first) and downloads it. */
export function EvidenceReportDialog({
  orgId,
  frameworkName,
  period,
  onClose,
}: {
  orgId: string;
  frameworkName: string;
  period: EvaluationPeriod;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const permissions = usePermissions();
  const org = useCurrentOrg();
  const offered = evidenceReportElementsFor(
    permissions,
    entitledRiskModules(org?.productSkus ?? []).length > 0,
  );
  const [chosen, setChosen] = useState<EvidenceReportElement[]>(offered);
  const [submitted, setSubmitted] = useState(false);
  const report = useMutation({
    mutationFn: async () =>
      saveBlob(
        await apiFetchFile(
          `${periodPath(orgId, period.id)}/evidence-report?elements=${offered.filter((element) => chosen.includes(element)).join(',')}`,
          {
            accept: 'application/pdf',
          },
        ),
        `evidence-${frameworkName}-${period.name}.pdf`,
      ),
    onSuccess: onClose,
    meta: { notifyError: false },
  });
  const serverError = report.error
    ? `${t('governance.periods.evidenceReportFailed')}: ${describeError(report.error, t)}`
    : null;
  return (
    <Modal opened onClose={onClose} title={t('governance.evidenceReport.title', { name: period.name })}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (chosen.length > 0) report.mutate();
        }}
      >
        <Stack gap="sm">
          <Checkbox.Group
            label={t('governance.evidenceReport.elements')}
            value={chosen}
            onChange={(value) => setChosen(value as EvidenceReportElement[])}
            error={submitted && chosen.length === 0 ? t('GOVERNANCE_EVIDENCE_REPORT_NO_ELEMENTS') : undefined}
          >
            <Stack gap="xs" mt="xs">
              {offered.map((element) => (
                <Checkbox
                  key={element}
                  value={element}
                  label={t(`governance.evidenceReport.element.${element}`)}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {serverError && (
            <Text size="sm" c="red" role="alert">
              {serverError}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={report.isPending}>
              {t('governance.evidenceReport.download')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
