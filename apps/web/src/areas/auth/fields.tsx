import { PasswordInput, TextInput, type PasswordInputProps, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

// Every field of these short forms is required, so none is marked with an asterisk: the label stays
// exactly its text for screen readers and for tests that find fields by label.

export function RequiredTextInput(props: TextInputProps) {
  return <TextInput required withAsterisk={false} {...props} />;
}

/** A required password field whose show/hide button is not named after the field. */
export function RequiredPasswordInput(props: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      required
      withAsterisk={false}
      visibilityToggleButtonProps={{ 'aria-label': t('auth.toggleVisibility') }}
      {...props}
    />
  );
}
