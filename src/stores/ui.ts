/**
 * Shell panels: the cart panel (right), the mobile menu (left) and the overlay that shows while
 * either is open. Opening one closes the other; components only call these actions.
 */
import { atom, computed } from 'nanostores';

export type Panel = 'cart' | 'menu';

export const $openPanel = atom<Panel | null>(null);
export const $cartOpen = computed($openPanel, (p) => p === 'cart');
export const $menuOpen = computed($openPanel, (p) => p === 'menu');

export function openPanel(panel: Panel): void {
  $openPanel.set(panel);
}

export function togglePanel(panel: Panel): void {
  $openPanel.set($openPanel.get() === panel ? null : panel);
}

export function closePanels(): void {
  $openPanel.set(null);
}

export const openCart = () => openPanel('cart');
export const toggleCart = () => togglePanel('cart');
export const toggleMenu = () => togglePanel('menu');

/** The contact modal is a dialog of its own, not a side panel. */
export const $contactModalOpen = atom(false);
export const openContactModal = () => $contactModalOpen.set(true);
export const closeContactModal = () => $contactModalOpen.set(false);
