/**
 * The storefront's operation documents: src/graphql/operations/*.graphql, each composed with the
 * fragments it needs (transitively) from src/graphql/fragments/*.graphql — the text the storefront sends.
 * Documents are compared by their definitions, printed and sorted, so whitespace, comments and the order
 * of fragments do not matter.
 *
 * Another storefront (a WooGraphQL client on another origin) can run in production mode too: the operator
 * registers its documents by copying them into a folder of their own under the client documents folder
 * (TRUSTED_CLIENT_DOCUMENTS_DIR, default <data dir>/trusted-documents/<client>/): each operation there,
 * with the fragments it spreads from any file of the same folder, is trusted as the client sends it.
 * A file that does not parse stops the engine at start, naming the file and the line.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  Kind,
  parse,
  print,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
} from 'graphql';

export type TrustedDocuments = { allows(query: string): boolean; size: number; names: string[] };

function definitionsKey(doc: DocumentNode): string {
  return doc.definitions
    .map((d) => print(d))
    .sort()
    .join('\n');
}

function readGraphqlFiles(dir: string): { file: string; doc: DocumentNode }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.graphql') || f.endsWith('.gql'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      try {
        return { file: f, doc: parse(fs.readFileSync(file, 'utf8'), { noLocation: true }) };
      } catch (err) {
        throw new Error(`${file}: not a GraphQL document: ${(err as Error).message}`);
      }
    });
}

/** Each operation of `operationsDir` as a self-contained document (operation + transitive fragments). */
export function composeOperations(
  operationsDir: string,
  fragmentsDir = path.join(operationsDir, '..', 'fragments'),
): { name: string; file: string; document: DocumentNode }[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operationFiles = readGraphqlFiles(operationsDir);
  for (const { doc } of [...readGraphqlFiles(fragmentsDir), ...operationFiles]) {
    for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  }
  const out: { name: string; file: string; document: DocumentNode }[] = [];
  for (const { file, doc } of operationFiles) {
    for (const op of doc.definitions) {
      if (op.kind !== Kind.OPERATION_DEFINITION) continue;
      const needed = new Map<string, FragmentDefinitionNode>();
      const queue: DefinitionNode[] = [op];
      while (queue.length) {
        visit(queue.pop()!, {
          FragmentSpread(node) {
            const f = fragments.get(node.name.value);
            if (f && !needed.has(f.name.value)) {
              needed.set(f.name.value, f);
              queue.push(f);
            }
          },
        });
      }
      out.push({
        name: op.name?.value ?? file,
        file,
        document: { kind: Kind.DOCUMENT, definitions: [op, ...needed.values()] },
      });
    }
  }
  return out;
}

/** The registered clients' operations: each folder of `dir` composed on its own (its fragments, its operations). */
function clientOperations(dir: string): ReturnType<typeof composeOperations> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const folder = path.join(dir, e.name);
      return composeOperations(folder, folder).map((o) => ({ ...o, name: `${e.name}/${o.name}` }));
    });
}

export function loadTrustedDocuments(operationsDir: string, clientDocumentsDir?: string): TrustedDocuments {
  const operations = [
    ...composeOperations(operationsDir),
    ...(clientDocumentsDir ? clientOperations(clientDocumentsDir) : []),
  ];
  const keys = new Set(operations.map((o) => definitionsKey(o.document)));
  const seen = new Map<string, boolean>();
  return {
    size: operations.length,
    names: operations.map((o) => o.name),
    allows(query) {
      const known = seen.get(query);
      if (known !== undefined) return known;
      let ok = false;
      try {
        ok = keys.has(definitionsKey(parse(query, { noLocation: true })));
      } catch {
        ok = false;
      }
      if (seen.size > 1000) seen.clear();
      seen.set(query, ok);
      return ok;
    },
  };
}
