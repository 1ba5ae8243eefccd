import type { Store } from '../types.js';

export interface DemoSummary {
  skipped: boolean;
}

export function seedDemo(_store: Store, _tenantId: number, _options: { mediaDir: string }): DemoSummary {
  throw new Error('seedDemo: not implemented yet');
}
