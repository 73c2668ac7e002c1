import { PERMISSION_GROUPS } from '@commerce/auth';
import { describe, expect, it } from 'vitest';
import { listPermissionPresets } from './permission-presets.ts';
import { permissionPresetListSchema } from './schemas.ts';

describe('listPermissionPresets', () => {
  it('lists named bundles of known permission groups, each key once', () => {
    const presets = listPermissionPresets();

    expect(permissionPresetListSchema.parse(presets)).toEqual(presets);
    expect(presets.data.map((preset) => preset.key)).toEqual([
      'catalog_manager',
      'fulfillment',
      'customer_support',
      'bookings_manager',
      'store_settings',
      'developer',
    ]);
    for (const preset of presets.data) {
      expect(preset.permissions.length, preset.key).toBeGreaterThan(0);
      expect(new Set(preset.permissions).size, preset.key).toBe(preset.permissions.length);
      for (const group of preset.permissions) expect(PERMISSION_GROUPS, preset.key).toContain(group);
      expect(preset.name.length).toBeGreaterThan(0);
      expect(preset.description.length).toBeGreaterThan(0);
    }
    expect(presets.data.find((preset) => preset.key === 'catalog_manager')?.permissions).toEqual([
      'catalog:write',
      'content:write',
    ]);
  });

  it('hands out copies, so a caller cannot change the presets', () => {
    listPermissionPresets().data[0]!.permissions.push('settings:manage');
    expect(listPermissionPresets().data[0]!.permissions).toEqual(['catalog:write', 'content:write']);
  });
});
