import { Button, Stack } from '@mantine/core';
import { totpCodeSchema } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequiredTextInput } from './fields';

const CODE_LENGTH = 6;

export interface CodeFormProps {
  submitLabel: string;
  /** True while the code is being checked. */
  validating: boolean;
  /** Why the last code was refused. */
  error: string | null;
  onSubmit(code: string): void;
  /** Called when the user edits the code, for example to clear `error`. */
  onEdit?(): void;
  /** False where the field sits below other steps, so that the page opens at its top. */
  autoFocus?: boolean;
}

/** The one-time code of an authenticator app: six digits, required; submit waits for a valid code. */
export function CodeForm({
  submitLabel,
  validating,
  error,
  onSubmit,
  onEdit,
  autoFocus = true,
}: CodeFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const valid = totpCodeSchema.safeParse(code).success;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (valid && !validating) onSubmit(code);
      }}
    >
      <Stack gap="md">
        <RequiredTextInput
          label={t('auth.code.label')}
          description={t('auth.code.description')}
          autoFocus={autoFocus}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          value={code}
          error={error}
          onChange={(event) => {
            // Digits only: spaces and dashes that apps show between groups are dropped while typing or pasting.
            setCode(event.currentTarget.value.replace(/\D/g, '').slice(0, CODE_LENGTH));
            onEdit?.();
          }}
        />
        <Button type="submit" disabled={!valid || validating} loading={validating}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
