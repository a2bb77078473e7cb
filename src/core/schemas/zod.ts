/**
 * pdesk's schemas are written with zod/mini, zod's tree-shakable functional build: the bundle then carries the
 * few schema kinds pdesk uses (about 75 kB) instead of all of zod (about 750 kB, a third of a one-shot
 * command's start-up: docs/performance.md). zod/mini has no default messages; English is set here, once,
 * so issues read as they do in classic zod ("Invalid input: expected string, received number"). Every schema
 * module imports zod through this one.
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config(en());

export * from 'zod/mini';
