// The one function of fs-native-extensions this project uses (the package ships no types).
declare module 'fs-native-extensions' {
  /**
   * Takes an exclusive (or, with `shared`, a shared) lock on the open file `fd` without waiting: true when
   * taken, false when another open file holds a conflicting lock. Closing `fd` lets go of it.
   */
  export function tryLock(fd: number, offset?: number, length?: number, options?: { shared?: boolean }): boolean;
}
