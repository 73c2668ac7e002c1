import { z } from 'zod';

export const itemIdSchema = z.string().min(1).max(64).describe('The item id');
