/**
 * Keyboard movement in the admin lists: ↑/↓ (and Home/End) move focus between the rows' primary
 * buttons, so a list can be walked without Tab-ing through every cell; Enter/Space activate as usual.
 */
export function rowKeys(event: KeyboardEvent): void {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const body = event.currentTarget as HTMLElement | null;
  const target = event.target as HTMLElement | null;
  if (!body || !target?.classList.contains('admin-row-button')) return;
  const buttons = Array.from(body.querySelectorAll<HTMLElement>('.admin-row-button'));
  const i = buttons.indexOf(target);
  const next =
    event.key === 'ArrowDown'
      ? buttons[i + 1]
      : event.key === 'ArrowUp'
        ? buttons[i - 1]
        : event.key === 'Home'
          ? buttons[0]
          : event.key === 'End'
            ? buttons.at(-1)
            : undefined;
  if (!next) return;
  event.preventDefault();
  next.focus();
}

/** Escape inside a form cancels it (unless a control such as a select handles Escape itself). */
export function escapeCancels(cancel: () => void): (event: KeyboardEvent) => void {
  return (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    cancel();
  };
}

/** `use:arrowRows` on a tbody: ↑/↓/Home/End between the rows' primary buttons. */
export function arrowRows(node: HTMLElement): { destroy(): void } {
  node.addEventListener('keydown', rowKeys);
  return { destroy: () => node.removeEventListener('keydown', rowKeys) };
}

/** `use:escapeToCancel={cancel}` on a form. */
export function escapeToCancel(node: HTMLElement, cancel: () => void): { update(next: () => void): void; destroy(): void } {
  let handler = escapeCancels(cancel);
  const listener = (e: KeyboardEvent) => handler(e);
  node.addEventListener('keydown', listener);
  return {
    update(next) {
      handler = escapeCancels(next);
    },
    destroy: () => node.removeEventListener('keydown', listener),
  };
}

/** After a refused save: focus the first field marked invalid (or keep focus in the form). */
export function focusFirstInvalid(form: HTMLElement | undefined): void {
  const target = form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('button[type="submit"]');
  target?.focus();
}
