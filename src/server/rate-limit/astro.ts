/** The TCP peer address of an Astro request, or null where Astro cannot tell (it throws then). */
export function socketAddress(context: { clientAddress: string }): string | null {
  try {
    return context.clientAddress || null;
  } catch {
    return null;
  }
}
