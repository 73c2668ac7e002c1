import { itemIdInputSchema, variantPathInputSchema } from '@commerce/catalog';
import { z } from 'zod';

/** Body-less actions: the path's id and nothing else. */
export const itemActionInputSchema = z.strictObject({ id: itemIdInputSchema.shape.id });

export const variantActionInputSchema = variantPathInputSchema.strict();
