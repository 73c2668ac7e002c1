import type { PermissionGroup } from '@commerce/auth';
import type { PermissionPreset } from './schemas.ts';

/**
 * Named bundles of permission groups for Staff, offered to the admin UI when
 * granting or editing a membership. A preset is a suggestion only: the
 * membership stores the groups themselves, never the preset key.
 */
export const PERMISSION_PRESETS = [
  {
    key: 'catalog_manager',
    name: 'Catalog manager',
    description: 'Edits items, variants, collections and content pages.',
    permissions: ['catalog:write', 'content:write'],
  },
  {
    key: 'fulfillment',
    name: 'Fulfillment',
    description: 'Moves orders through their statuses and ships them: fulfillments, packages and labels.',
    permissions: ['orders:operate', 'fulfillment:operate'],
  },
  {
    key: 'customer_support',
    name: 'Customer support',
    description: 'Reads customer accounts and works on their orders (status and notes).',
    permissions: ['customers:read', 'orders:operate'],
  },
  {
    key: 'bookings_manager',
    name: 'Bookings manager',
    description: 'Manages booking services and bookings, and reads the customers who booked.',
    permissions: ['bookings:manage', 'customers:read'],
  },
  {
    key: 'store_settings',
    name: 'Store settings',
    description: 'Changes store settings, shipping zones and rates.',
    permissions: ['settings:manage'],
  },
  {
    key: 'developer',
    name: 'Developer',
    description: "Manages the webhook endpoints that send the store's events to other systems.",
    permissions: ['webhooks:manage'],
  },
] as const satisfies readonly (Omit<PermissionPreset, 'permissions'> & {
  permissions: readonly PermissionGroup[];
})[];

export function listPermissionPresets(): { data: PermissionPreset[] } {
  return {
    data: PERMISSION_PRESETS.map((preset) => ({ ...preset, permissions: [...preset.permissions] })),
  };
}
