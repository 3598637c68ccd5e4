/**
 * Stack traces of a bundle run through `vm.Script` (scripts/run.cjs) name the TypeScript sources: Node 20 applies
 * source maps only to modules its own loaders compiled, so frames in the bundle are mapped here, through the
 * bundle's linked `.map` file and node:module's SourceMap. The map (several MB) is read the first time a stack is
 * formatted, never at start-up.
 */
'use strict';
const { readFileSync } = require('node:fs');
const { SourceMap } = require('node:module');
const path = require('node:path');

/**
 * @param {string} file the bundle's path, as given to vm.Script
 * @param {number} firstLineOffset columns the wrapper added before the bundle's first line
 */
function installStackMapping(file, firstLineOffset) {
  /** @type {SourceMap | null | undefined} */
  let map;
  const sourceMap = () => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        map = null;
      }
    }
    return map;
  };
  const mapFrame = (callSite) => {
    const text = callSite.toString();
    const line = callSite.getLineNumber();
    const column = callSite.getColumnNumber();
    if (callSite.getFileName() !== file || line === null || column === null) return text;
    const m = sourceMap();
    const entry = m?.findEntry(line - 1, column - 1 - (line === 1 ? firstLineOffset : 0));
    if (!entry || !('originalSource' in entry)) return text;
    const source = entry.originalSource.startsWith('file:')
      ? new URL(entry.originalSource).pathname
      : path.resolve(path.dirname(file), entry.originalSource);
    return text.replace(`${file}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
  };
  Error.prepareStackTrace = (error, callSites) => {
    let header;
    try {
      header = Error.prototype.toString.call(error);
    } catch {
      header = '<error>';
    }
    return [header, ...callSites.map((cs) => `    at ${mapFrame(cs)}`)].join('\n');
  };
}

module.exports = { installStackMapping };
