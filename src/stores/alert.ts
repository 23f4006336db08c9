/**
 * The alert banner (fixed top right). Any island or script raises it through raiseAlert();
 * the banner script only renders it. One alert at a time: a new one replaces the old.
 */
import { atom } from 'nanostores';

export type AlertType = 'success' | 'danger';

export interface Alert {
  id: number;
  type: AlertType;
  message: string;
  /** Milliseconds until it hides itself; 0 keeps it until dismissed. */
  timeout: number;
}

export const $alert = atom<Alert | null>(null);

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

export function raiseAlert({
  type,
  message,
  timeout = 3000,
}: {
  type: AlertType;
  message: string;
  timeout?: number;
}): Alert {
  const alert: Alert = { id: nextId++, type, message, timeout };
  clearTimeout(timer);
  $alert.set(alert);
  if (timeout > 0) timer = setTimeout(() => dismissAlert(alert.id), timeout);
  return alert;
}

/** Dismisses the given alert (or the current one); a newer alert is left alone. */
export function dismissAlert(id?: number): void {
  const current = $alert.get();
  if (!current || (id !== undefined && current.id !== id)) return;
  clearTimeout(timer);
  $alert.set(null);
}
