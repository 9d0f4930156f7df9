import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The Edit and Delete buttons of a list row. Their accessible names carry the row's name ("Edit
 * Privileged accounts"), so that a screen reader or a test can tell the rows' buttons apart.
 */
export function EditDeleteButtons({
  editLabel,
  deleteLabel,
  deleteText,
  onEdit,
  onDelete,
}: {
  editLabel: string;
  deleteLabel: string;
  /** The visible text of the delete button. */
  deleteText: ReactNode;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Button size="compact-sm" variant="subtle" aria-label={editLabel} onClick={onEdit}>
        {t('common.edit')}
      </Button>
      <Button size="compact-sm" variant="subtle" color="red" aria-label={deleteLabel} onClick={onDelete}>
        {deleteText}
      </Button>
    </>
  );
}
