import { customType } from 'drizzle-orm/pg-core';

/** Bytes stored in the row (uploaded files, generated PDFs), read back as a Buffer on either driver. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
