/** A parsed XML element: enough to query the report's SVG in tests. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
const NAME = /[A-Za-z_][\w:.-]*/y;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (_, ref: string) =>
    ref.startsWith('#x') ? String.fromCodePoint(parseInt(ref.slice(2), 16)) : ref.startsWith('#') ? String.fromCodePoint(Number(ref.slice(1))) : NAMED[ref]!);
}

/**
 * A strict little XML parser for well-formedness checks: balanced tags, quoted unique attributes,
 * only the predefined or numeric entities, one root, no stray `<` or `&`. Throws with the offset.
 */
export function parseXml(source: string): XmlNode {
  let at = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${at}: ${JSON.stringify(source.slice(Math.max(0, at - 40), at + 40))}`);
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(source);
    if (!match) fail('expected a name');
    at += match![0].length;
    return match![0];
  };
  const checkText = (text: string, offset: number): void => {
    for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
      ENTITY.lastIndex = offset + i;
      if (!ENTITY.test(source)) {
        at = offset + i;
        fail('bad entity');
      }
    }
  };
  const skipSpace = (): void => {
    while (/\s/.test(source[at] ?? '')) at++;
  };
  const element = (): XmlNode => {
    if (source[at] !== '<') fail('expected <');
    at++;
    const node: XmlNode = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', at)) {
        at += 2;
        return node;
      }
      if (source[at] === '>') break;
      const key = name();
      if (key in node.attrs) fail(`duplicate attribute ${key}`);
      if (source[at] !== '=' || source[at + 1] !== '"') fail('expected ="');
      const end = source.indexOf('"', at + 2);
      if (end < 0) fail('unterminated attribute');
      const value = source.slice(at + 2, end);
      if (value.includes('<')) fail('< in attribute');
      checkText(value, at + 2);
      node.attrs[key] = decode(value);
      at = end + 1;
    }
    at++;
    for (;;) {
      const next = source.indexOf('<', at);
      if (next < 0) fail(`unclosed <${node.name}>`);
      checkText(source.slice(at, next), at);
      node.text += decode(source.slice(at, next));
      at = next;
      if (source.startsWith('</', at)) {
        at += 2;
        const closing = name();
        if (closing !== node.name) fail(`</${closing}> closes <${node.name}>`);
        skipSpace();
        if (source[at] !== '>') fail('expected >');
        at++;
        return node;
      }
      node.children.push(element());
    }
  };
  skipSpace();
  const root = element();
  skipSpace();
  if (at !== source.length) fail('content after the root element');
  return root;
}

/** Every node under `node` (itself included) that matches. */
export function findAll(node: XmlNode, match: (node: XmlNode) => boolean): XmlNode[] {
  return [...(match(node) ? [node] : []), ...node.children.flatMap((child) => findAll(child, match))];
}

export const hasClass = (name: string) => (node: XmlNode): boolean => (node.attrs.class ?? '').split(/\s+/).includes(name);
