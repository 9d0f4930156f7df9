import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bulkDeleteResultSchema } from '@vigil/contracts';
import { useState } from 'react';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { orgPath } from '../assets/queries';
import { dashboardsKey } from './api';

export interface Seen {
  id: string;
  /** The version the user saw; the server deletes only what is still at it. */
  modifiedOn: string;
}

/**
 * The selection of a chart or dashboard list and its bulk delete, which reports the items another
 * user changed in the meantime with the spec's partial-failure message.
 */
export function useBulkDelete<T extends Seen>(orgId: string, kind: 'charts' | 'dashboards') {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Map<string, T>>(new Map());
  const remove = useMutation({
    mutationFn: (items: T[]) =>
      apiFetch(`${orgPath(orgId)}/${kind}/bulk-delete`, {
        method: 'POST',
        body: { items: items.map(({ id, modifiedOn }) => ({ id, modifiedOn })) },
        schema: bulkDeleteResultSchema,
      }),
    onSuccess: async (result) => {
      setSelected(new Map());
      if (result.failed > 0) notifyMessage(`${kind}.bulkDeletePartial`, 'yellow', result);
      else notifyMessage(`${kind}.done.deleteMany`, 'green', { count: result.deleted });
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
    },
    meta: { errorKey: `${kind}.actionFailed` },
  });
  const toggle = (item: T) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(item.id)) next.delete(item.id);
      else next.set(item.id, item);
      return next;
    });
  return { selected, toggle, clear: () => setSelected(new Map()), remove };
}
