/** Every drizzle table, for the client and for drizzle-kit's migration generator. */
export * from '../modules/orgs/tables';
export * from '../modules/roles/tables';
export * from '../modules/users/tables';
export * from '../modules/auth/tables';
export * from '../platform/audit/tables';
export * from '../modules/sso/tables';
export * from '../modules/banners/tables';
export * from '../modules/info/tables';
export * from '../modules/system/tables';
export * from '../modules/metadata/tables';
export * from '../modules/restrictions/tables';
export * from '../modules/assets/tables';
export * from '../modules/tokens/tables';
export * from '../modules/events/tables';
export * from '../modules/saved-queries/tables';
export * from '../modules/classifiers/tables';
export * from '../modules/custom-parsers/tables';
