/** Class names that ad blockers' cosmetic filters hide. */
const BAIT_CLASSES = 'ad ads adsbox ad-banner ad-placement doubleclick pub_300x250 textads banner-ads';
const SETTLE_MS = 300;

/**
 * Whether an ad blocker seems active: a bait element with ad-like class names is hidden or removed
 * shortly after it is added to the page.
 */
export async function detectAdBlocker(doc: Document = document): Promise<boolean> {
  const bait = doc.createElement('div');
  bait.className = BAIT_CLASSES;
  bait.setAttribute('aria-hidden', 'true');
  bait.style.cssText = 'position:absolute;left:-9999px;top:-9999px;width:1px;height:1px;';
  doc.body.appendChild(bait);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const view = doc.defaultView;
  const style = view?.getComputedStyle(bait);
  const blocked =
    !bait.isConnected || style?.display === 'none' || style?.visibility === 'hidden' || bait.hidden;
  bait.remove();
  return blocked;
}
