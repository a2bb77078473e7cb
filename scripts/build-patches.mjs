// esbuild plugins that patch dependencies where they load more than pdesk needs at start-up (measured: README,
// "Performance"). Each checks that the code it replaces is there and fails the build when a dependency changed.
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

/**
 * yoga-layout (Ink's layout engine) loads its WebAssembly from a base64 data: URL through the global fetch when
 * there is one, as on Node 18+: that loads node's own undici and decodes the URL in JavaScript, about a tenth
 * of the TUI's start-up. Its own synchronous path (atob) is taken instead, as where fetch does not exist.
 */
export const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      const uses = source.split('"function"!=typeof fetch').length - 1;
      if (uses !== 2) throw new Error(`${a.path}: expected 2 fetch checks, found ${uses}; update scripts/build-patches.mjs`);
      return { contents: source.replaceAll('"function"!=typeof fetch', 'true'), loader: 'js' };
    });
  },
};

/**
 * string-width (Ink measures every line of text with it) builds /^\p{RGI_Emoji}$/v when it loads: about 200 M
 * instructions (~30 ms), the largest single cost of the TUI's first frame, for text that is nearly always plain.
 * It is built on first need instead, and only for what can be an RGI emoji: a segment of one code point is one
 * only if it has Emoji_Presentation (UTS #51 basic emoji; checked for every code point by
 * test/tui/string-width-patch.test.ts), so single code points are asked of that small class first.
 */
export const lazyRgiEmoji = {
  name: 'string-width-lazy-rgi-emoji',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      const eager = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
      if (!source.includes(eager)) return undefined; // another string-width version (wrap-ansi's): left as it is
      return { contents: source.replace(eager, () => RGI_EMOJI_LAZY), loader: 'js' };
    });
  },
};
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
