/** Light/dark theme: follows prefers-color-scheme until the operator picks one, which is persisted. */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'canton-console.theme';

export function parseStoredTheme(value: string | null | undefined): Theme | null {
  return value === 'light' || value === 'dark' ? value : null;
}

export function resolveTheme(stored: string | null | undefined, prefersDark: boolean): Theme {
  return parseStoredTheme(stored) ?? (prefersDark ? 'dark' : 'light');
}

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

function readStored(): string | null {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function currentTheme(): Theme {
  return resolveTheme(readStored(), systemPrefersDark());
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset['theme'] = theme;
}

/** Applies and persists an explicit choice. */
export function chooseTheme(theme: Theme): void {
  applyTheme(theme);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage may be disabled; the choice still applies to this page.
  }
}

/** While no explicit choice is stored, follow system changes. Returns a cleanup. */
export function followSystemTheme(onChange: (theme: Theme) => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia('(prefers-color-scheme: dark)');
  const listener = () => {
    if (parseStoredTheme(readStored())) return;
    const theme: Theme = query.matches ? 'dark' : 'light';
    applyTheme(theme);
    onChange(theme);
  };
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}
