// esbuild plugins that patch dependencies where they load more than pdesk needs at start-up (measured:
// docs/performance.md). Each checks that the code it replaces is there and fails the build when a dependency changed.
import { readFileSync } from 'node:fs';

/**
 * commander requires node:child_process (with node:net, node:dgram and more under it) when it loads, for
 * executable subcommands pdesk does not have; it is required when commander spawns one instead (+12 M
 * instructions on every start otherwise).
 */
export const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (a) => {
      const eager = "const childProcess = require('node:child_process');";
      const source = readFileSync(a.path, 'utf8');
      if (!source.includes(eager))
        throw new Error(`${a.path}: commander no longer requires child_process as expected; update scripts/build-patches.mjs`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/** Replace `from` by `to` in a dependency's source, failing the build when `from` is not there `count` times. */
function patched(path, source, from, to, count = 1) {
  const found = source.split(from).length - 1;
  if (found !== count)
    throw new Error(`${path}: expected ${count}× ${JSON.stringify(from)}, found ${found}; update scripts/build-patches.mjs`);
  return source.replaceAll(from, () => to);
}

/**
 * yoga-layout (Ink's layout engine) is an Emscripten module that starts with a top-level await, which a
 * CommonJS bundle cannot hold, and fetches its WebAssembly from a base64 data: URL through the global fetch
 * (node's own undici, decoding the URL in JavaScript: about a tenth of the TUI's start-up). Here it starts
 * synchronously instead: Emscripten's `instantiateWasm` hook gets the module's own synchronous byte decoder
 * (`wa`, made to decode with Buffer), compiles and instantiates on the spot, and the runtime then starts before
 * `loadYoga()` returns.
 */
export const yogaSynchronous = {
  name: 'yoga-synchronous',
  setup(b) {
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (a) => {
      let source = readFileSync(a.path, 'utf8');
      source = patched(a.path, source, 'h.instantiateWasm(d,\na)', 'h.instantiateWasm(d,a,wa)');
      source = patched(a.path, source, '"function"!=typeof fetch', 'true', 2);
      source = patched(a.path, source, 'var _scriptDir = import.meta.url', 'var _scriptDir = undefined');
      // The bytes of the data: URL through Buffer's native decoder, not atob (JavaScript on Node 20) and a copy
      // loop, which would hold up the TUI's first frame for the same bytes.
      source = patched(
        a.path,
        source,
        'var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c',
        'var d=new Uint8Array(Buffer.from(a.slice(37),"base64"))',
      );
      return { contents: source, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      patched(a.path, source, 'const Yoga = wrapAssembly(await loadYoga());', '');
      return {
        contents: `import loadYogaImpl from '../binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from './wrapAssembly.js';
const moduleArg = {
  instantiateWasm(imports, receive, binary) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(binary()), imports);
    receive(instance);
    return instance.exports;
  },
};
loadYogaImpl(moduleArg);
if (!moduleArg.calledRun) throw new Error('yoga-layout did not start synchronously (scripts/build-patches.mjs)');
const Yoga = wrapAssembly(moduleArg);
export default Yoga;
export * from './generated/YGEnums.js';
`,
        loader: 'js',
        resolveDir: a.path.replace(/[\\/][^\\/]*$/, ''),
      };
    });
  },
};

/**
 * Ink's reconciler awaits at top level for its development mode (DEV=true: React devtools, its package.json),
 * which a CommonJS bundle cannot hold. pdesk's build has no devtools: DEV=true changes nothing (the ESM build it
 * replaces printed a warning that react-devtools-core is not installed).
 */
export const inkWithoutTopLevelAwait = {
  name: 'ink-without-top-level-await',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (a) => {
      let source = readFileSync(a.path, 'utf8');
      source = patched(a.path, source, "await import('./devtools.js');", 'void 0;');
      source = patched(a.path, source, '? await loadPackageJson()', '? { name: undefined, version: undefined }');
      return { contents: source, loader: 'js' };
    });
  },
};

/**
 * string-width (Ink measures every line of text with it) builds /^\p{RGI_Emoji}$/v when it loads: the largest
 * single cost of the TUI's first frame (docs/performance.md), for text that is nearly always plain.
 * It is built on first need instead, and only for what can be an RGI emoji: a segment of one code point is one
 * only if it has Emoji_Presentation (UTS #51 basic emoji; checked for every code point by
 * test/scripts/build-patches.test.ts), so single code points are asked of that small class first.
 */
export const RGI_EMOJI_LAZY = `let rgiEmojiFull;
const emojiPresentation = /\\p{Emoji_Presentation}/u;
const rgiEmojiRegex = {
	test(segment) {
		const single = segment.length === (segment.codePointAt(0) > 0xFFFF ? 2 : 1);
		if (single && !emojiPresentation.test(segment)) return false;
		rgiEmojiFull ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v');
		return rgiEmojiFull.test(segment);
	},
};`;

/**
 * Text a grapheme segmenter needs not look at: only code points that are each their own grapheme cluster
 * whatever surrounds them (Unicode's Grapheme_Cluster_Break Other or Control: Latin, punctuation, symbols,
 * arrows, box drawing; carriage return excluded, it pairs with a line feed). Checked against Intl.Segmenter
 * for every one of them by test/scripts/build-patches.test.ts.
 */
export const SIMPLE_TEXT = String.raw`^[\0-\f\x0E-\u02FF\u2010-\u2027\u2030-\u205E\u2070-\u20CF\u2100-\u2BFF]*$`;

/** The module the segmenter patch imports: an Intl.Segmenter made on first need, with the fast path above. */
export const SEGMENTER_MODULE = `const simple = new RegExp(${JSON.stringify(SIMPLE_TEXT)});
export function lazySegmenter(locales, options, fastPath) {
  let real;
  return {
    segment(input) {
      if (fastPath && simple.test(input)) {
        const segments = [];
        for (let index = 0; index < input.length; index++) segments.push({ segment: input[index], index, input });
        return segments;
      }
      real ??= new Intl.Segmenter(locales, options);
      return real.segment(input);
    },
  };
}
`;

/**
 * Ink's text measuring (string-width), output (@alcalzone/ansi-tokenize), wrapping (wrap-ansi's string-width)
 * and slicing (slice-ansi) each make an Intl.Segmenter when they load: the first one starts ICU (docs/performance.md),
 * before the TUI has drawn anything. Each is made on first need instead, and the two the
 * first frame uses (measuring and output, which only iterate) skip it for text of code points that are each
 * their own grapheme (SIMPLE_TEXT): a frame of Latin text, punctuation and box drawing never starts ICU.
 */
const SEGMENTERS = [
  // Wrapping only (wrap-ansi's own string-width): made lazily, no fast path. First: the filter below matches it too.
  {
    file: /[\\/]wrap-ansi[\\/]node_modules[\\/]string-width[\\/]index\.js$/,
    eager: 'const segmenter = new Intl.Segmenter();',
    args: 'undefined, undefined, false',
  },
  // string-width's RGI_Emoji regex is built lazily too (RGI_EMOJI_LAZY, above).
  {
    file: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/,
    eager: 'const segmenter = new Intl.Segmenter();',
    args: 'undefined, undefined, true',
    rgi: true,
  },
  {
    file: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
    eager: 'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
    args: "undefined, { granularity: 'grapheme' }, true",
  },
  // slice-ansi uses more than iteration (Segments.containing): made lazily, no fast path.
  {
    file: /[\\/]slice-ansi[\\/]tokenize-ansi\.js$/,
    eager: "const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});",
    args: "undefined, { granularity: 'grapheme' }, false",
  },
];
/** Ink's text dependencies, patched as the comments above say (string-width, ansi-tokenize, wrap-ansi, slice-ansi). */
export const inkText = {
  name: 'ink-text',
  setup(b) {
    b.onResolve({ filter: /^pdesk:segmenter$/ }, () => ({ path: 'segmenter', namespace: 'pdesk' }));
    b.onLoad({ filter: /^segmenter$/, namespace: 'pdesk' }, () => ({ contents: SEGMENTER_MODULE, loader: 'js' }));
    for (const { file, eager, args, rgi } of SEGMENTERS)
      b.onLoad({ filter: file }, (a) => {
        let source = readFileSync(a.path, 'utf8');
        if (rgi) source = patched(a.path, source, 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', RGI_EMOJI_LAZY);
        const name = eager.slice('const '.length, eager.indexOf(' ='));
        source = patched(
          a.path,
          source,
          eager,
          `import { lazySegmenter as __pdeskLazySegmenter } from 'pdesk:segmenter';\nconst ${name} = __pdeskLazySegmenter(${args});`,
        );
        return { contents: source, loader: 'js' };
      });
  },
};
