/**
 * Opens the privacy settings (ConsentDialog.astro's <dialog>) and stores the visitor's choice. Resolves
 * with the choice, or null when the visitor closed the dialog without choosing (then nothing changes).
 * Used by the footer button and by forms that need a consent-bound service (the contact form).
 */
import { raiseAlert } from '../../stores/alert';
import { currentConsent, saveConsent, type ConsentChoice } from '../../stores/consent';

let waiting: ((choice: ConsentChoice | null) => void)[] = [];
let opener: HTMLElement | null = null;
const wired = new WeakSet<HTMLDialogElement>();

function finish(dialog: HTMLDialogElement, choice: ConsentChoice | null): void {
  const done = waiting;
  waiting = [];
  if (dialog.open) dialog.close();
  // Back where the visitor was (the browser does this too; the opener may have been re-rendered).
  if (opener?.isConnected) opener.focus();
  opener = null;
  for (const resolve of done) resolve(choice);
}

function wire(dialog: HTMLDialogElement): void {
  if (wired.has(dialog)) return;
  wired.add(dialog);
  for (const button of dialog.querySelectorAll<HTMLButtonElement>('[data-consent-choice]')) {
    button.addEventListener('click', () => {
      const choice = button.dataset.consentChoice === 'all' ? 'all' : 'necessary';
      saveConsent(choice);
      raiseAlert({ type: 'success', message: dialog.dataset.saved ?? '' });
      finish(dialog, choice);
    });
  }
  dialog.querySelector('[data-consent-close]')?.addEventListener('click', () => finish(dialog, null));
  // Escape: the same as the close button (nothing decided).
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    finish(dialog, null);
  });
}

export function openPrivacySettings(): Promise<ConsentChoice | null> {
  const dialog = document.getElementById('privacy-settings') as HTMLDialogElement | null;
  if (!dialog) return Promise.resolve(currentConsent()?.choice ?? null);
  wire(dialog);
  const choice = currentConsent()?.choice;
  const status = dialog.querySelector<HTMLElement>('[data-consent-status]');
  if (status)
    status.textContent =
      dialog.dataset[choice === 'all' ? 'statusAll' : choice ? 'statusNecessary' : 'statusNone'] ?? '';
  const result = new Promise<ConsentChoice | null>((resolve) => waiting.push(resolve));
  if (!dialog.open) {
    opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
  }
  return result;
}
