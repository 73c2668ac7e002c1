import { z } from 'zod';

/** The sandbox's behaviours: per tenant, persistent until changed; the first value of each is the default. */
export const SANDBOX_BEHAVIOUR_VALUES = {
  rate: ['OK', 'UNAVAILABLE'],
  balance: ['OK', 'UNAVAILABLE'],
  purchase: ['OK', 'DECLINED', 'UNAVAILABLE', 'TIMEOUT_COMMITTED', 'TIMEOUT_NOT_COMMITTED'],
  void: ['VOIDED', 'PENDING', 'REJECTED', 'TIMEOUT_COMMITTED', 'TIMEOUT_PENDING'],
  read: ['OK', 'UNAVAILABLE'],
} as const;

export const sandboxBehavioursSchema = z
  .object({
    rate: z.enum(SANDBOX_BEHAVIOUR_VALUES.rate).describe('`UNAVAILABLE`: rating fails (a quote is 503)'),
    balance: z
      .enum(SANDBOX_BEHAVIOUR_VALUES.balance)
      .describe('`UNAVAILABLE`: balance reads fail (funding `UNKNOWN`)'),
    purchase: z
      .enum(SANDBOX_BEHAVIOUR_VALUES.purchase)
      .describe(
        '`DECLINED` refuses; `UNAVAILABLE` sends nothing; the timeouts report `UNCERTAIN` at once, `TIMEOUT_COMMITTED` after debiting and recording the label',
      ),
    void: z
      .enum(SANDBOX_BEHAVIOUR_VALUES.void)
      .describe(
        '`PENDING` records a refund in progress; `REJECTED` refuses; the timeouts report `UNCERTAIN` after recording the label voided (`TIMEOUT_COMMITTED`) or pending (`TIMEOUT_PENDING`)',
      ),
    read: z.enum(SANDBOX_BEHAVIOUR_VALUES.read).describe('`UNAVAILABLE`: label and purchase reads fail'),
  })
  .meta({ id: 'SandboxCarrierBehaviours' });
export type SandboxBehaviours = z.infer<typeof sandboxBehavioursSchema>;

export const DEFAULT_SANDBOX_BEHAVIOURS: SandboxBehaviours = {
  rate: 'OK',
  balance: 'OK',
  purchase: 'OK',
  void: 'VOIDED',
  read: 'OK',
};

/** The stored behaviours over the defaults; a stored value no longer known falls back to its default. */
export function behavioursOf(stored: Record<string, unknown> | null | undefined): SandboxBehaviours {
  const merged = { ...DEFAULT_SANDBOX_BEHAVIOURS };
  for (const key of Object.keys(SANDBOX_BEHAVIOUR_VALUES) as (keyof SandboxBehaviours)[]) {
    const parsed = sandboxBehavioursSchema.shape[key].safeParse(stored?.[key]);
    if (parsed.success) (merged as Record<string, string>)[key] = parsed.data;
  }
  return merged;
}
