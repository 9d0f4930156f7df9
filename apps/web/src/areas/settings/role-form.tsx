import {
  Alert,
  Button,
  Group,
  List,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  expandPermissions,
  PERMISSION_AREAS,
  PERMISSION_DEPENDENCIES,
  PERMISSION_MODULES,
  ROLE_NAME_MAX_LENGTH,
  type PermissionDependency,
  type Role,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { usePermissions } from '../../lib/session';
import { accessKey, orgPath } from './access-queries';

export type Level = 'NONE' | 'VIEW' | 'EDIT';
const LEVELS: Level[] = ['NONE', 'VIEW', 'EDIT'];
const AREA_CODES = new Set<string>(PERMISSION_AREAS.map((area) => area.code));

/** Each area's level in a list of codes: Read & Write when it holds _EDIT, Read Only with _VIEW. */
export function levelsOf(codes: readonly string[]): Record<string, Level> {
  const held = new Set(codes);
  return Object.fromEntries(
    PERMISSION_AREAS.map((area) => [
      area.code,
      held.has(`${area.code}_EDIT`) ? 'EDIT' : held.has(`${area.code}_VIEW`) ? 'VIEW' : 'NONE',
    ]),
  );
}

/** The codes of a matrix, keeping codes that are not areas (provider markers) as they were. */
export function codesOf(levels: Record<string, Level>, original: readonly string[]): string[] {
  const kept = original.filter((code) => !AREA_CODES.has(code.replace(/_(VIEW|EDIT)$/, '')));
  const chosen = PERMISSION_AREAS.flatMap((area) => {
    const level = levels[area.code];
    return level === 'NONE' || !level ? [] : [`${area.code}_${level}`];
  });
  return [...chosen, ...kept];
}

/** The dependency hints a set of codes breaks: `requires` ones are refused by the server. */
export function brokenDependencies(codes: readonly string[]): PermissionDependency[] {
  const held = expandPermissions(codes);
  return PERMISSION_DEPENDENCIES.filter((dep) => held.has(dep.permission) && !held.has(dep.needs));
}

const areaOf = (code: string) =>
  PERMISSION_AREAS.find((area) => code === `${area.code}_VIEW` || code === `${area.code}_EDIT`);

/** A custom role's name, description and permission matrix; shared roles are shown read-only. */
export function RoleForm({
  orgId,
  role,
  readOnly,
  onDone,
}: {
  orgId: string;
  role: Role | null;
  readOnly: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const held = usePermissions();
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [levels, setLevels] = useState(() => levelsOf(role?.permissions ?? []));
  const [nameError, setNameError] = useState<string | undefined>();
  const codes = codesOf(levels, role?.permissions ?? []);
  /** "Charts (Read & Write)" for CHART_EDIT. */
  const describe = (code: string) =>
    t('settings.roles.areaLevel', {
      area: areaOf(code)?.label ?? code,
      level: t(`settings.roles.levels.${code.endsWith('_EDIT') ? 'EDIT' : 'VIEW'}`),
    });
  const broken = brokenDependencies(codes);

  const save = useMutation({
    mutationFn: () =>
      apiFetch(
        role
          ? `${orgPath(orgId)}/role/custom/${encodeURIComponent(role.id)}`
          : `${orgPath(orgId)}/role/custom`,
        {
          method: role ? 'PUT' : 'POST',
          body: { name: name.trim(), description: description.trim(), permissions: codes },
        },
      ),
    meta: { notifyError: false },
    onSuccess: () => {
      notifyMessage(role ? 'settings.roles.saved' : 'settings.roles.created');
      void queryClient.invalidateQueries({ queryKey: accessKey(orgId) });
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.error.field === 'name')
        setNameError(errorMessage(error.error, t));
      else notifyError(error, 'settings.roles.saveFailed');
    },
  });

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) setNameError(t('ERROR_REQUIRED'));
        else if (!readOnly) save.mutate();
      }}
    >
      <Stack gap="md">
        <TextInput
          label={t('settings.roles.name')}
          required
          readOnly={readOnly}
          maxLength={ROLE_NAME_MAX_LENGTH}
          value={name}
          error={nameError}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setNameError(undefined);
          }}
        />
        <Textarea
          label={t('settings.roles.description')}
          readOnly={readOnly}
          autosize
          minRows={2}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
        {PERMISSION_MODULES.map((module) => (
          <Stack key={module} gap={4}>
            <Title order={3} size="h5">
              {t(`settings.roles.modules.${module}`)}
            </Title>
            <Table layout="fixed" verticalSpacing={4}>
              <Table.Tbody>
                {PERMISSION_AREAS.filter((area) => area.module === module).map((area) => (
                  <Table.Tr key={area.code}>
                    <Table.Td>
                      <Text size="sm" id={`area-${area.code}`}>
                        {area.label}
                      </Text>
                      {'note' in area && (
                        <Text size="xs" c="dimmed">
                          {area.note}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td w={320}>
                      <SegmentedControl
                        size="xs"
                        fullWidth
                        aria-labelledby={`area-${area.code}`}
                        readOnly={readOnly}
                        value={levels[area.code] ?? 'NONE'}
                        onChange={(value) =>
                          setLevels((current) => ({ ...current, [area.code]: value as Level }))
                        }
                        data={LEVELS.map((level) => ({
                          value: level,
                          label: t(`settings.roles.levels.${level}`),
                          // Nobody grants what they do not hold.
                          disabled: level !== 'NONE' && !held.has(`${area.code}_${level}`) && !readOnly,
                        }))}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        ))}
        {broken.length > 0 && (
          <Alert
            color={broken.some((dep) => dep.kind === 'requires') ? 'red' : 'yellow'}
            title={t('settings.roles.dependencies')}
          >
            <List size="sm">
              {broken.map((dep) => (
                <List.Item key={`${dep.permission}-${dep.needs}`}>
                  {t(dep.kind === 'requires' ? 'settings.roles.requires' : 'settings.roles.recommends', {
                    permission: describe(dep.permission),
                    needs: describe(dep.needs),
                  })}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        {!readOnly && (
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={broken.some((dep) => dep.kind === 'requires')}
            >
              {role ? t('common.save') : t('settings.roles.create')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
