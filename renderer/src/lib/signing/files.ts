/** Moving files in and out of the renderer: downloads from text, picked files to text (no paths involved). */

/** Saves `text` as a download named `fileName` (Blob + object URL; the renderer never learns a path). */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Text of the first file chosen in an `<input type=file>` change event (null when none was chosen). With `reset`, the
 * input is emptied afterwards so picking the same file again fires another change (imports); forms keep the choice.
 */
export async function pickedText(
  event: Event,
  opts: { reset?: boolean } = { reset: true },
): Promise<{ name: string; text: string } | null> {
  const input = event.currentTarget as HTMLInputElement;
  const file = input.files?.[0];
  if (!file) return null;
  const text = await file.text();
  if (opts.reset) input.value = '';
  return { name: file.name, text };
}
