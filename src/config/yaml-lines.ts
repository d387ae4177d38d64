import { isMap, isNode, isScalar, type Document, type LineCounter } from 'yaml';

/** Finds the line of a YAML path in a parsed document, so config errors can say `repos.yaml:12`. */
export interface YamlLines {
  /** 1-based line of the node at `path` (of the key `key` inside it when given); undefined when absent. */
  lineOf(path: ReadonlyArray<PropertyKey>, key?: string): number | undefined;
}

export function yamlLines(doc: Document, counter: LineCounter): YamlLines {
  return {
    lineOf(path, key) {
      const keys = path.filter((part): part is string | number => typeof part !== 'symbol');
      const node = keys.length === 0 ? doc.contents : doc.getIn(keys, true);
      let start: number | undefined;
      if (key !== undefined && isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
        if (pair && isNode(pair.key)) start = pair.key.range?.[0];
      }
      if (start === undefined && isNode(node)) start = node.range?.[0];
      return start === undefined ? undefined : counter.linePos(start).line;
    },
  };
}
