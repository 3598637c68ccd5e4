/** Picked files to text (no paths involved); files leave the console through exports (lib/exports.svelte.ts). */

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
