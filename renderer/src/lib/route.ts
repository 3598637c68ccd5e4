/** Hash routing: `#/<viewId>`. The browser host's `#token=…` is consumed by connect.ts before routing starts. */
export function parseRoute(hash: string, ids: readonly string[], fallback: string): string {
  const match = /^#\/([A-Za-z0-9_-]+)/.exec(hash);
  const id = match?.[1];
  return id && ids.includes(id) ? id : fallback;
}

export function routeHash(id: string): string {
  return `#/${id}`;
}
