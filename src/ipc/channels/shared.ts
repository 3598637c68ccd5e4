/** Small schemas several channel groups use. */
import { z } from 'zod';

/** Request of a channel that takes no parameters: extra fields are refused, not ignored. */
export const EmptyRequest = z.object({}).strict();
