/**
 * The layer table of ARCHITECTURE.md as rules (`npm run lint:layers`, part of `npm test`).
 * test/unit/layer-rules.test.ts plants a violation of each rule and checks that this config fails it.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles, type-only imports included: a cycle makes load order and ownership unclear. ' +
        'A Svelte component importing itself (recursive rendering) is not a cycle between modules.',
      from: { path: '(.+)' },
      to: { circular: true, pathNot: '^$1$' },
    },
    {
      name: 'renderer-only-ipc-client',
      severity: 'error',
      comment: 'The renderer talks to the main process only through the contract (src/ipc, client side).',
      from: { path: '^renderer/' },
      to: {
        path: '^(src|electron|scripts|test|bench)/',
        pathNot: ['^src/ipc/(contract|errors|client|wire|ws-transport|preload-api|channels/[^/]+)\\.ts$', '^src/common/'],
      },
    },
    {
      name: 'renderer-no-node',
      severity: 'error',
      comment: 'The renderer runs in a sandboxed browser page: no Node built-ins.',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'ipc-contract-self-contained',
      severity: 'error',
      comment: 'The contract (src/ipc) imports only zod and itself, so both sides can load it.',
      from: { path: '^src/ipc/' },
      to: { path: '^(src|electron|renderer|scripts|test|bench)/', pathNot: '^src/ipc/' },
    },
    {
      name: 'ipc-contract-no-node',
      severity: 'error',
      comment: 'The contract is loaded by the renderer too: no Node built-ins.',
      from: { path: '^src/ipc/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'daml-lf-isolated',
      severity: 'error',
      comment: 'src/daml-lf is used by the simulator and the console alike and imports nothing of the rest.',
      from: { path: '^src/daml-lf/' },
      to: { path: '^(src|electron|renderer|scripts|test|bench)/', pathNot: '^src/daml-lf/' },
    },
    {
      name: 'dar-reader-isolated',
      severity: 'error',
      comment: 'src/dar-reader (the DAR reader thread, used by the simulator and the console) imports only src/daml-lf.',
      from: { path: '^src/dar-reader/' },
      to: { path: '^(src|electron|renderer|scripts|test|bench)/', pathNot: '^src/(dar-reader|daml-lf)/' },
    },
    {
      name: 'daml-lf-isomorphic',
      severity: 'error',
      comment: 'src/daml-lf is isomorphic: no Node built-ins.',
      from: { path: '^src/daml-lf/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'common-isolated',
      severity: 'error',
      comment: 'src/common holds primitives both sides share (console, simulator, renderer): it imports nothing of the rest.',
      from: { path: '^src/common/' },
      to: { path: '^(src|electron|renderer|scripts|test|bench)/', pathNot: '^src/common/' },
    },
    {
      name: 'common-isomorphic',
      severity: 'error',
      comment: 'src/common is loaded by the renderer too: no Node built-ins.',
      from: { path: '^src/common/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'platform-isolated',
      severity: 'error',
      comment: 'src/platform holds Node-only primitives the console and the simulator share: it imports nothing of the rest.',
      from: { path: '^src/platform/' },
      to: { path: '^(src|electron|renderer|scripts|test|bench)/', pathNot: '^src/platform/' },
    },
    {
      name: 'simulator-independent',
      severity: 'error',
      comment: 'The simulator is a participant the console reaches over HTTP only: nothing of the console.',
      from: { path: '^src/simulator/' },
      to: { path: '^(src/(services|app|ipc|host|cli)|electron|renderer|scripts|test|bench)/' },
    },
    {
      name: 'services-below-composition',
      severity: 'error',
      comment: 'Services import the contract (errors, types) and each other, never the composition, shells or simulator.',
      from: { path: '^src/services/' },
      to: { path: '^(src/(app|host|cli|simulator)|electron|renderer|scripts|test|bench)/' },
    },
    {
      name: 'composition-below-shells',
      severity: 'error',
      comment: 'src/app composes services, simulator and contract; the shells sit above it.',
      from: { path: '^src/app/' },
      to: { path: '^(src/(host|cli)|electron|renderer|scripts|test|bench)/' },
    },
    {
      name: 'host-no-other-shell',
      severity: 'error',
      comment: 'The browser host carries the contract; it does not reach into other shells or the renderer sources.',
      from: { path: '^src/host/' },
      to: { path: '^(src/cli|electron|renderer|scripts|test|bench)/' },
    },
    {
      name: 'electron-only-in-electron',
      severity: 'error',
      comment: "Only the Electron shell imports 'electron'; everything else runs as plain Node too.",
      from: { pathNot: '^electron/' },
      to: { path: '^node_modules/electron/' },
    },
    {
      name: 'product-not-on-tests',
      severity: 'error',
      comment: 'Product code never imports tests or benchmarks.',
      from: { path: '^(src|electron|renderer)/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|release)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.svelte', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // The renderer and the contract it imports must resolve from renderer/; only non-type deps of .svelte need svelte.
    extraExtensionsToScan: [],
    reporterOptions: { text: { highlightFocused: true } },
  },
};
