import { afterEach, describe, expect, it } from 'vitest';
import { detectAdBlocker } from './adblock';

describe('ad-blocker detection', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('finds nothing when the bait stays visible', async () => {
    await expect(detectAdBlocker()).resolves.toBe(false);
    expect(document.querySelector('.adsbox')).toBeNull();
  });

  it('notices when a filter hides the bait', async () => {
    const style = document.createElement('style');
    style.textContent = '.adsbox { display: none !important; }';
    document.head.appendChild(style);

    await expect(detectAdBlocker()).resolves.toBe(true);
  });
});
