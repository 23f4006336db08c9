// Vite's `?raw` imports of the .graphql documents (src/graphql/registry.ts).
declare module '*.graphql?raw' {
  const source: string;
  export default source;
}
