/**
 * The signed-in customer as the header needs it (WooGraphQL `viewer` fields), kept in
 * localStorage so static pages can show the right links before any request. The account issue
 * sets it after login and clears it on logout; the session token itself is not stored here.
 */
import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';

export interface Viewer {
  id?: string;
  databaseId?: number;
  username: string;
  email?: string;
  /** False while the account's address is not confirmed (the account details offer to send the link again). */
  emailVerified?: boolean;
  firstName?: string | null;
  lastName?: string | null;
}

export const $viewer = persistentAtom<Viewer | null>('meshfront:viewer', null, {
  encode: JSON.stringify,
  decode: (raw) => {
    try {
      const v = JSON.parse(raw) as Viewer | null;
      return v && typeof v.username === 'string' ? v : null;
    } catch {
      return null;
    }
  },
});

export const $isLoggedIn = computed($viewer, (v) => v !== null);

export function setViewer(viewer: Viewer | null): void {
  $viewer.set(viewer);
}

/** How the header names a customer: first and last name, else the username. */
export function viewerDisplayName(viewer: Pick<Viewer, 'firstName' | 'lastName' | 'username'>): string {
  return (
    [viewer.firstName, viewer.lastName]
      .filter((part) => part?.trim())
      .join(' ')
      .trim() || viewer.username
  );
}
