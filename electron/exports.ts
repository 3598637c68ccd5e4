/**
 * Electron delivery of exports: a save dialog proposes the export's file name (in the Downloads folder); the file is
 * written as `<name>.part` with mode 0600 and renamed once complete, so a cancelled or failed export leaves nothing
 * half-written behind. Closing the dialog declines the export.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { pump, type Delivered, type DeliveryEvents, type ExportFile, type ExportSink } from '../src/services/exports/delivery.js';

export function saveDialogSink(window: () => BrowserWindow | null): ExportSink {
  return {
    async deliver(file: ExportFile, events: DeliveryEvents, signal: AbortSignal): Promise<Delivered | null> {
      const defaultPath = path.join(app.getPath('downloads'), file.fileName);
      const win = window();
      const options = { title: 'Save export', defaultPath, properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const] };
      const choice = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      if (choice.canceled || !choice.filePath) return null;
      const target = choice.filePath;
      const partial = `${target}.part`;
      const out = createWriteStream(partial, { mode: 0o600 });
      try {
        const { bytes, lines } = await pump(file, out, events, signal);
        await rename(partial, target);
        return {
          fileName: path.basename(target),
          bytes,
          ...(lines !== undefined ? { lines } : {}),
          location: { kind: 'file', path: target },
        };
      } catch (err) {
        out.destroy();
        await rm(partial, { force: true }).catch(() => undefined);
        throw err;
      }
    },
  };
}
