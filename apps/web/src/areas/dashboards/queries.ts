import { queryOptions } from '@tanstack/react-query';
import { healthSchema } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';

export const healthQuery = queryOptions({
  queryKey: ['health'],
  queryFn: ({ signal }) => apiFetch('/api/health', { schema: healthSchema, signal }),
});
