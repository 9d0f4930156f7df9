import { Alert, Center, Code, Image, Loader, Stack, Tabs, Text } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groupSecret, totpSecretOf } from './totp';

/** Spec 1 section 9. */
const QR_CODE_WIDTH = 225;

const PLATFORMS = ['android', 'blackberry', 'ios', 'windowsPhone'] as const;

/** Whether a QR code could be drawn for `uri`; null while it is being drawn. */
function useQrCode(uri: string | null): { uri: string; dataUrl: string | null } | null {
  const [drawn, setDrawn] = useState<{ uri: string; dataUrl: string | null } | null>(null);
  useEffect(() => {
    if (uri === null) return;
    let current = true;
    QRCode.toDataURL(uri, { width: QR_CODE_WIDTH, margin: 1 }).then(
      (dataUrl) => current && setDrawn({ uri, dataUrl }),
      () => current && setDrawn({ uri, dataUrl: null }),
    );
    return () => {
      current = false;
    };
  }, [uri]);
  return drawn?.uri === uri ? drawn : null;
}

/**
 * First step of setting up an authenticator app: the QR code of the otpauth URI, the secret to type
 * by hand (in groups of 4) and instructions per phone platform.
 */
export function TotpSetupPanel({ uri }: { uri: string }) {
  const { t } = useTranslation();
  const secret = totpSecretOf(uri);
  const qr = useQrCode(secret === null ? null : uri);

  if (secret === null) {
    return <Alert color="red">{t('QR_CODE_GENERATION_ERROR')}</Alert>;
  }
  return (
    <Stack gap="md">
      <Text>{t('auth.totpSetup.scan')}</Text>
      <Center h={QR_CODE_WIDTH}>
        {qr === null ? (
          <Loader aria-label={t('app.loading')} />
        ) : qr.dataUrl === null ? (
          <Alert color="red">{t('QR_CODE_GENERATION_ERROR')}</Alert>
        ) : (
          <Image src={qr.dataUrl} w={QR_CODE_WIDTH} h={QR_CODE_WIDTH} alt={t('auth.totpSetup.qrAlt')} />
        )}
      </Center>
      <Stack gap={4}>
        <Text size="sm">{t('auth.totpSetup.manual')}</Text>
        <Code fz="md">{groupSecret(secret)}</Code>
      </Stack>
      <Tabs defaultValue="android">
        <Tabs.List>
          {PLATFORMS.map((platform) => (
            <Tabs.Tab key={platform} value={platform}>
              {t(`auth.totpSetup.platforms.${platform}.name`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {PLATFORMS.map((platform) => (
          <Tabs.Panel key={platform} value={platform} pt="sm">
            <Text size="sm">{t(`auth.totpSetup.platforms.${platform}.steps`)}</Text>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
