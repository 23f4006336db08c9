/**
 * The self-hosted bot check in the contact form: the ALTCHA widget ("I'm not a robot" checkbox), shown
 * when the shop has no reCAPTCHA keys, or has them and the visitor has not accepted reCAPTCHA. Its code (altcha-widget.ts, ~30 KB) loads only once the visitor
 * starts using the form (`start`, the form's first focus) — or when the form is sent — so a page that
 * merely shows the form loads none of it; the space it takes is kept free meanwhile. The widget then
 * solves its challenge while the visitor types, so it is usually done by the time they press Send; the
 * form asks `control.payload()` at submit time, which waits for a check in progress or starts one (a
 * visitor never has to tick the box), and calls `control.reset()` after a send or a refusal, so the next
 * message gets a fresh challenge.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { AltchaWidgetElement } from 'altcha';
import type {} from 'altcha/types/react';
import type { Lookup } from '../../lib/i18n/lookup.ts';

export type AltchaControl = {
  /** The widget's payload for the server: waits for a check in progress, or runs one. Throws when the check fails. */
  payload(): Promise<string>;
  /** Back to unchecked, so the next submit solves a new challenge. */
  reset(): void;
};

type StateChange = CustomEvent<{ state: string; payload?: string | null }>;

/** The outcome of the check in progress. */
function nextResult(widget: AltchaWidgetElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const onChange = (event: Event) => {
      const { state, payload } = (event as StateChange).detail;
      if (state === 'verified' && payload) {
        widget.removeEventListener('statechange', onChange);
        resolve(payload);
      } else if (state === 'error' || state === 'expired' || state === 'unverified') {
        widget.removeEventListener('statechange', onChange);
        reject(new Error(`ALTCHA check ended ${state}`));
      }
    };
    widget.addEventListener('statechange', onChange);
  });
}

/** A promise and the function that resolves it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export type AltchaCheckProps = {
  challengeUrl: string;
  t: Lookup;
  control: RefObject<AltchaControl | null>;
  /** True once the visitor uses the form: the widget's code loads then. */
  start: boolean;
};

export default function AltchaCheck({ challengeUrl, t, control, start }: AltchaCheckProps) {
  const [language, setLanguage] = useState<string | null>(null);
  const widget = useRef<AltchaWidgetElement | null>(null);
  // Resolved when the element is in the page (the render after its module loaded).
  const mounted = useRef(deferred<AltchaWidgetElement>());
  const loading = useRef<Promise<void> | null>(null);
  const lastPayload = useRef<string | null>(null);
  // The page's strings do not change while it is open; the latest lookup is used when the module loads.
  const lookup = useRef(t);
  lookup.current = t;

  const load = useCallback(() => {
    loading.current ??= import('./altcha-widget.ts').then(async (module) => {
      await module.stylesheetLoaded;
      setLanguage(module.registerLabels(lookup.current));
    });
    return loading.current;
  }, []);

  useEffect(() => {
    if (start) load().catch(() => {}); // reported when the form asks for a payload
  }, [start, load]);

  useEffect(() => {
    // The widget is in the page once its language is known (its module has loaded).
    const el = language === null ? null : widget.current;
    if (!el) return;
    const remember = (event: Event) => {
      const { state, payload } = (event as StateChange).detail;
      lastPayload.current = state === 'verified' ? (payload ?? null) : null;
    };
    el.addEventListener('statechange', remember);
    // The focus that loaded the widget came before it was there to see it: start the check now.
    if (el.closest('form')?.contains(document.activeElement) && el.getState() === 'unverified') void el.verify();
    return () => el.removeEventListener('statechange', remember);
  }, [language]);

  useEffect(() => {
    control.current = {
      async payload() {
        await load();
        const el = await mounted.current.promise;
        const state = el.getState();
        if (state === 'verified' && lastPayload.current) return lastPayload.current;
        if (state === 'verifying') return nextResult(el);
        const result = await el.verify();
        if (!result?.payload) throw new Error('the ALTCHA check failed');
        return result.payload;
      },
      reset() {
        lastPayload.current = null;
        widget.current?.reset();
      },
    };
    return () => {
      control.current = null;
    };
  }, [control, load]);

  return (
    // The widget's height, kept free until it loads so the Send button does not move.
    <div className="min-h-[4.75rem]">
      {language && (
        <altcha-widget
          ref={(el) => {
            widget.current = el as AltchaWidgetElement | null;
            if (el) mounted.current.resolve(el as AltchaWidgetElement);
          }}
          challenge={challengeUrl}
          auto="onfocus"
          language={language}
          name="altcha"
          // No interaction data is collected: the proof of work is the whole check.
          configuration={JSON.stringify({ humanInteractionSignature: false })}
          style={{ '--altcha-max-width': '100%', '--altcha-border-radius': '0.5rem' }}
        />
      )}
    </div>
  );
}
