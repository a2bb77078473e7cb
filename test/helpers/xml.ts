/**
 * A strict reader of the XML subset pdesk writes (JUnit reports): a declaration, elements with double-quoted
 * attributes, text with the five entities and numeric references. Anything else (an unescaped `<` or `&`, a
 * mismatched tag, a character XML 1.0 forbids, two roots) throws, so a test that parses a file also proves it
 * well-formed. And the rules of the xunit plugin's junit-10.xsd, to validate a JUnit file against.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, at: number): string {
  if (/[<]/.test(s)) throw new Error(`unescaped < at ${at}`);
  return s.replace(/&([^;]*);|&/g, (m, name: string | undefined) => {
    if (name === undefined) throw new Error(`unescaped & at ${at}`);
    if (name in ENTITY) return ENTITY[name]!;
    const num = /^#(x[0-9a-fA-F]+|\d+)$/.exec(name);
    if (num) return String.fromCodePoint(num[1]!.startsWith('x') ? parseInt(num[1]!.slice(1), 16) : Number(num[1]));
    throw new Error(`unknown entity ${m} at ${at}`);
  });
}

export function parseXml(xml: string): XmlElement {
  const bad = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.exec(xml);
  if (bad) throw new Error(`a character XML 1.0 forbids (U+${bad[0].charCodeAt(0).toString(16)}) at ${bad.index}`);
  let i = 0;
  const decl = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (decl) i = decl[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < xml.length) {
    if (xml.startsWith('</', i)) {
      const m = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(xml.slice(i));
      if (!m) throw new Error(`bad end tag at ${i}`);
      const open = stack.pop();
      if (!open || open.name !== m[1]) throw new Error(`</${m[1]}> at ${i} closes <${open?.name}>`);
      i += m[0].length;
    } else if (xml[i] === '<') {
      const m = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"]*")*)\s*(\/?)>/.exec(xml.slice(i));
      if (!m) throw new Error(`bad start tag at ${i}: ${xml.slice(i, i + 40)}`);
      const attrs: Record<string, string> = {};
      for (const a of m[2]!.matchAll(/([A-Za-z_][\w.:-]*)="([^"]*)"/g)) {
        if (a[1]! in attrs) throw new Error(`attribute ${a[1]} twice at ${i}`);
        attrs[a[1]!] = decode(a[2]!, i);
      }
      const el: XmlElement = { name: m[1]!, attrs, children: [], text: '' };
      if (stack.length) stack[stack.length - 1]!.children.push(el);
      else if (root) throw new Error(`a second root element at ${i}`);
      else root = el;
      if (!m[3]) stack.push(el);
      i += m[0].length;
    } else {
      const next = xml.indexOf('<', i);
      const text = xml.slice(i, next < 0 ? xml.length : next);
      if (stack.length) stack[stack.length - 1]!.text += decode(text, i);
      else if (text.trim()) throw new Error(`text outside the root at ${i}`);
      i = next < 0 ? xml.length : next;
    }
  }
  if (stack.length) throw new Error(`<${stack[stack.length - 1]!.name}> is not closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** junit-10.xsd (jenkinsci/xunit-plugin): each element's allowed and required attributes and allowed children. */
const JUNIT: Record<string, { attrs: string[]; required: string[]; children: string[]; text?: boolean }> = {
  testsuites: { attrs: ['name', 'time', 'tests', 'failures', 'disabled', 'errors'], required: [], children: ['testsuite'] },
  testsuite: {
    attrs: [
      'name',
      'tests',
      'failures',
      'errors',
      'group',
      'time',
      'skipped',
      'timestamp',
      'hostname',
      'id',
      'package',
      'file',
      'log',
      'url',
    ],
    required: ['name', 'tests', 'failures', 'errors'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
  },
  properties: { attrs: [], required: [], children: ['property'] },
  property: { attrs: ['name', 'value'], required: ['name', 'value'], children: [] },
  testcase: {
    attrs: ['name', 'time', 'classname', 'group'],
    required: ['name'],
    children: ['skipped', 'error', 'failure', 'system-out', 'system-err'],
  },
  failure: { attrs: ['type', 'message'], required: [], children: [], text: true },
  error: { attrs: ['type', 'message'], required: [], children: [], text: true },
  skipped: { attrs: ['type', 'message'], required: [], children: [], text: true },
  'system-out': { attrs: [], required: [], children: [], text: true },
  'system-err': { attrs: [], required: [], children: [], text: true },
};
const SUREFIRE_TIME = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$/;

/** Problems of a JUnit document against junit-10.xsd (none when it is valid). */
export function junitProblems(root: XmlElement): string[] {
  const out: string[] = [];
  if (root.name !== 'testsuites') out.push(`root is <${root.name}>, not <testsuites>`);
  const visit = (el: XmlElement, path: string) => {
    const rule = JUNIT[el.name];
    if (!rule) {
      out.push(`${path}: element <${el.name}> is not in the schema`);
      return;
    }
    for (const a of Object.keys(el.attrs)) if (!rule.attrs.includes(a)) out.push(`${path}: attribute ${a} is not allowed`);
    for (const a of rule.required) if (!(a in el.attrs)) out.push(`${path}: attribute ${a} is required`);
    if ('time' in el.attrs && (el.name === 'testsuite' || el.name === 'testsuites') && !SUREFIRE_TIME.test(el.attrs.time!))
      out.push(`${path}: time ${el.attrs.time} is not a SUREFIRE_TIME`);
    if (!rule.text && el.text.trim()) out.push(`${path}: text is not allowed`);
    for (const c of el.children) {
      if (!rule.children.includes(c.name)) out.push(`${path}: <${c.name}> is not allowed in <${el.name}>`);
      visit(c, `${path}/${c.name}`);
    }
  };
  visit(root, root.name);
  return out;
}
