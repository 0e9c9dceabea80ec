import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps an in-memory flag for blocked storage, so each test loads a fresh copy.
async function load() {
  vi.resetModules();
  return import('./donation-popup-logic.ts');
}

function fakeStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: vi.fn((key: string) => data.get(key) ?? null),
    setItem: vi.fn((key: string, value: string) => void data.set(key, value)),
  };
}

const throwing = {
  getItem: () => {
    throw new DOMException('blocked', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('full', 'QuotaExceededError');
  },
};

describe('donation popup timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits 30,000 ms, then shows once', async () => {
    const { schedulePopup, DONATION_POPUP_DELAY_MS } = await load();
    expect(DONATION_POPUP_DELAY_MS).toBe(30_000);
    const show = vi.fn();
    schedulePopup(fakeStorage(), show);
    vi.advanceTimersByTime(29_999);
    expect(show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(show).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(120_000);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('never shows when this session already dismissed it', async () => {
    const { schedulePopup, DONATION_DISMISSED_KEY } = await load();
    const show = vi.fn();
    schedulePopup(fakeStorage({ [DONATION_DISMISSED_KEY]: 'true' }), show);
    vi.advanceTimersByTime(60_000);
    expect(show).not.toHaveBeenCalled();
  });

  it('cancel (unmount) stops a pending popup', async () => {
    const { schedulePopup } = await load();
    const show = vi.fn();
    const cancel = schedulePopup(fakeStorage(), show);
    vi.advanceTimersByTime(10_000);
    cancel();
    vi.advanceTimersByTime(60_000);
    expect(show).not.toHaveBeenCalled();
  });

  it('still shows when storage cannot be read', async () => {
    const { schedulePopup } = await load();
    const show = vi.fn();
    schedulePopup(throwing, show);
    vi.advanceTimersByTime(30_000);
    expect(show).toHaveBeenCalledTimes(1);
  });
});

describe('donation popup session flag', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('dismissal sets the flag in the storage it is given', async () => {
    const { rememberPopupDismissed, isPopupDismissed, DONATION_DISMISSED_KEY } = await load();
    const storage = fakeStorage();
    expect(isPopupDismissed(storage)).toBe(false);
    rememberPopupDismissed(storage);
    expect(storage.setItem).toHaveBeenCalledWith(DONATION_DISMISSED_KEY, 'true');
    expect(storage.data.get(DONATION_DISMISSED_KEY)).toBe('true');
    expect(isPopupDismissed(storage)).toBe(true);
  });

  it('other values of the key do not count as dismissed', async () => {
    const { isPopupDismissed, DONATION_DISMISSED_KEY } = await load();
    expect(isPopupDismissed(fakeStorage({ [DONATION_DISMISSED_KEY]: 'false' }))).toBe(false);
    expect(isPopupDismissed(fakeStorage({ other: 'true' }))).toBe(false);
  });

  it('storage that throws neither breaks reading nor writing; the dismissal is remembered in memory', async () => {
    const { rememberPopupDismissed, isPopupDismissed } = await load();
    expect(isPopupDismissed(throwing)).toBe(false);
    expect(() => rememberPopupDismissed(throwing)).not.toThrow();
    expect(isPopupDismissed(throwing)).toBe(true);
  });

  it('uses window.sessionStorage, and falls back when reading it throws', async () => {
    const session = fakeStorage();
    vi.stubGlobal('window', { sessionStorage: session });
    let logic = await load();
    expect(logic.popupStorage()).toBe(session);

    vi.stubGlobal(
      'window',
      Object.defineProperty({}, 'sessionStorage', {
        get() {
          throw new DOMException('denied', 'SecurityError');
        },
      }),
    );
    logic = await load();
    const fallback = logic.popupStorage();
    expect(fallback).not.toBe(session);
    expect(logic.isPopupDismissed(fallback)).toBe(false);
    logic.rememberPopupDismissed(fallback);
    expect(logic.isPopupDismissed(logic.popupStorage())).toBe(true);
  });

  it('without a window (server render) it uses the in-memory stand-in', async () => {
    const { popupStorage, isPopupDismissed } = await load();
    expect(typeof globalThis.window).toBe('undefined');
    expect(isPopupDismissed(popupStorage())).toBe(false);
  });
});
