// What the first-steps checklist keeps in this browser: that the owner opened or shared their shop
// (nothing on the server records a visit), and that every step was done (the card is gone for good).
const sharedKey = (storeId: string) => `tiendita.firstSteps.shared.${storeId}`;
const doneKey = (storeId: string) => `tiendita.firstSteps.done.${storeId}`;

function read(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function write(key: string): void {
  try {
    localStorage.setItem(key, '1');
  } catch {
    // Private mode: the step shows again next visit.
  }
}

/** Whether the owner opened or shared the shop from this browser. */
export const shopShared = (storeId: string): boolean => read(sharedKey(storeId));
export const markShopShared = (storeId: string): void => write(sharedKey(storeId));
export const firstStepsDone = (storeId: string): boolean => read(doneKey(storeId));
export const markFirstStepsDone = (storeId: string): void => write(doneKey(storeId));
