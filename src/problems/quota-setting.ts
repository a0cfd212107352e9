/**
 * The per-user storage quota's setting (USER_STORAGE_MAX_MIB), apart from
 * ./quota.ts so src/config.ts reads it without the database schema.
 * Default 2048 MiB: four problems at PROBLEM_TESTS_MAX_MIB's 512, while an
 * ordinary problem holds a few MiB; bound 1 TiB.
 */

/** The setting named in refusals. */
export const STORAGE_SETTING = "USER_STORAGE_MAX_MIB";
/** Its default, MiB. */
export const USER_STORAGE_DEFAULT_MIB = 2048;
/** The highest value the setting takes, MiB. */
export const USER_STORAGE_MAX_MIB_BOUND = 1024 * 1024;

/** The quota a server sets, carried beside its problem ceilings (`config.ceilings`). */
export interface StorageCeiling {
  /** All of one user's live problems together, bytes. */
  userStorageBytes: number;
}
