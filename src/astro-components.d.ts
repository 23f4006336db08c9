/**
 * `.astro` files imported from plain .ts modules (src/components/support/mdx.ts). `astro check` reads
 * each component's own props; plain `tsc` does not compile .astro files and takes this type instead.
 */
declare module '*.astro' {
  const component: import('astro/runtime/server/index.js').AstroComponentFactory;
  export default component;
}
