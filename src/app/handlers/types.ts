/** Handler types for one group of channels, so each area's handlers live in their own file. */
import type { z } from 'zod';
import type { CallContext } from '../../ipc/router.js';

type ChannelSpec = { request: z.ZodType; response: z.ZodType };
type SubscriptionSpec = { params: z.ZodType; event: z.ZodType };

/** A handler that has nothing to wait for answers directly; the router awaits either inside its error handling. */
export type HandlersOf<G extends Record<string, ChannelSpec>> = {
  [C in keyof G]: (
    request: z.output<G[C]['request']>,
    context: CallContext,
  ) => Promise<z.output<G[C]['response']>> | z.output<G[C]['response']>;
};

export type SubscriptionHandlersOf<G extends Record<string, SubscriptionSpec>> = {
  [S in keyof G]: (params: z.output<G[S]['params']>, emit: (event: z.output<G[S]['event']>) => void) => () => void;
};
