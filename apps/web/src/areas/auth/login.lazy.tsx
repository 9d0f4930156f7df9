import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute, getRouteApi, useRouter } from '@tanstack/react-router';
import { currentUserSchema, ERROR_KEYS, loginResponseSchema } from '@vigil/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { completeSignIn, currentUserQuery, startSecondFactor, type LoginRedirect } from '../../lib/session';
import { AnchorLink } from '../../shell/links';
import { PagePending } from '../../shell/page-pending';
import { AuthCard } from './auth-card';
import { basicAuthorization, isValidEmail } from './credentials';
import { RequiredPasswordInput, RequiredTextInput } from './fields';
import { samlEnabledQuery } from './queries';

const routeApi = getRouteApi('/login');

export const Route = createLazyRoute('/login')({
  component: LoginPage,
});

const KNOWN_ERROR_KEYS: ReadonlySet<string> = new Set(ERROR_KEYS);

/** Refusals shown in the warning above the form; anything else is a notification. */
function refusalKey(err: unknown): string | null {
  if (!(err instanceof ApiRequestError)) return null;
  if (err.error.key === 'LOGIN_RATE_LIMITED' || err.status === 429) return 'LOGIN_RATE_LIMITED';
  return err.status === 401 ? 'LOGIN_FAILED' : null;
}

function LoginPage() {
  const { t } = useTranslation();
  const search = routeApi.useSearch();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { redirectUrl, orgId, freshdesk, adminConsole } = search;

  // Spec 1 section 2.3: a session cookie that still signs the user in skips the form.
  const cookieAuth = useQuery(currentUserQuery);
  const cookieUser = cookieAuth.data;
  const signingIn = useRef(false);
  useEffect(() => {
    if (!cookieUser || signingIn.current) return;
    signingIn.current = true;
    completeSignIn(queryClient, router, cookieUser, { redirectUrl, orgId }).catch((err: unknown) =>
      notifyError(err),
    );
  }, [cookieUser, queryClient, router, redirectUrl, orgId]);

  if (cookieAuth.isPending || cookieUser) return <PagePending />;
  return (
    <AuthCard title={t('auth.login.title')}>
      {freshdesk && <Text>{t('auth.login.freshdeskLegend')}</Text>}
      {adminConsole && <Text>{t('auth.login.adminConsoleLegend')}</Text>}
      <LoginForm
        redirect={{ redirectUrl, orgId }}
        returnFlags={{ freshdesk, adminConsole }}
        initialRefusal={search.error && KNOWN_ERROR_KEYS.has(search.error) ? search.error : null}
      />
    </AuthCard>
  );
}

interface LoginFormProps {
  redirect: LoginRedirect;
  returnFlags: { freshdesk?: true; adminConsole?: true };
  /** An error the server sent the user back with, such as SAML_LOGIN_FAILED. */
  initialRefusal: string | null;
}

/** E-mail first; then single sign-on, or the password (spec 1 section 2.3). */
function LoginForm({ redirect, returnFlags, initialRefusal }: LoginFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'email' | 'password'>('email');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(initialRefusal);

  const checkEmail = useMutation({
    mutationFn: (address: string) => queryClient.fetchQuery({ ...samlEnabledQuery(address), staleTime: 0 }),
    meta: { errorKey: 'ERROR_VALIDATING_USERNAME' },
    onSuccess: async (sso, address) => {
      if (!sso.ssoEnabled) {
        setStep('password');
        return;
      }
      await router.navigate({
        to: '/saml-redirect',
        search: {
          ssoName: sso.ssoName,
          ssoUrl: sso.ssoUrl,
          samlRequest: sso.samlRequest,
          email: address,
          ...returnFlags,
        },
      });
    },
  });

  const logIn = useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      const login = await apiFetch('/api/user/login', {
        method: 'POST',
        headers: { Authorization: basicAuthorization(credentials.email, credentials.password) },
        schema: loginResponseSchema,
      });
      if (login.secondFactorRequired) {
        await startSecondFactor(queryClient, router, login, redirect);
        return;
      }
      const user = await apiFetch('/api/user', { schema: currentUserSchema });
      await completeSignIn(queryClient, router, user, redirect);
    },
    meta: { notifyError: false },
    onError: (err) => {
      const key = refusalKey(err);
      if (key) {
        setRefusal(key);
        setPassword('');
      } else {
        notifyError(err, 'LOGIN_FAILED');
      }
    },
  });

  const clearRefusal = () => setRefusal(null);

  const submit = () => {
    const address = email.trim();
    if (!isValidEmail(address)) {
      setEmailError(t(address === '' ? 'ERROR_REQUIRED' : 'auth.invalidEmail'));
      return;
    }
    if (step === 'email') {
      checkEmail.mutate(address);
    } else if (password === '') {
      setPasswordError(t('ERROR_REQUIRED'));
    } else {
      logIn.mutate({ email: address, password });
    }
  };

  return (
    <form
      noValidate
      onKeyDown={clearRefusal}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        {refusal && (
          <Alert color="red" variant="light">
            {t(refusal)}
          </Alert>
        )}
        <RequiredTextInput
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          // Focusing clears the warning, so a warning the page opens with must not be cleared at once.
          autoFocus={initialRefusal === null}
          value={email}
          error={emailError}
          onFocus={clearRefusal}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setEmailError(null);
            // Another address may sign in differently (single sign-on): ask again.
            if (step === 'password') {
              setStep('email');
              setPassword('');
            }
          }}
        />
        {step === 'password' && (
          <RequiredPasswordInput
            label={t('auth.password')}
            autoComplete="current-password"
            autoFocus
            value={password}
            error={passwordError}
            onFocus={clearRefusal}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setPasswordError(null);
            }}
          />
        )}
        {step === 'email' ? (
          <Button type="submit" loading={checkEmail.isPending}>
            {t('auth.login.next')}
          </Button>
        ) : (
          <>
            <Button type="submit" loading={logIn.isPending}>
              {t('auth.login.submit')}
            </Button>
            <Group justify="flex-end">
              <AnchorLink to="/forgot-password" size="sm">
                {t('auth.login.forgotPassword')}
              </AnchorLink>
            </Group>
          </>
        )}
      </Stack>
    </form>
  );
}
