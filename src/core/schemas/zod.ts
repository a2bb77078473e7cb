/**
 * pdesk's schemas are written with zod/mini, zod's tree-shakable functional build: the bundle then carries the
 * few schema kinds pdesk uses instead of all of zod, which a one-shot command would compile at every start
 * (docs/performance.md). zod/mini has no default messages; English is set here, once,
 * so issues read as they do in classic zod ("Invalid input: expected string, received number"). Every schema
 * module imports zod through this one.
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config(en());

export * from 'zod/mini';
